import type { ButtonHTMLAttributes } from 'react';

const variants = {
  primary:
    'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-600/60 dark:disabled:bg-brand-600/40',
  secondary:
    'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60',
  ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
} as const;

export const buttonClass = (variant: keyof typeof variants = 'primary') =>
  `inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 text-sm font-medium transition-colors disabled:cursor-not-allowed ${variants[variant]}`;

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof variants }) {
  return <button type={type} className={`${buttonClass(variant)} ${className}`} {...props} />;
}
