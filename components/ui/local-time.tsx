'use client';

import { useEffect, useState } from 'react';
import { dateTimeFormat } from '@/lib/time-format';

const format = (date: Date, timeZone?: string) =>
  dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);

/** A moment in the reader's own time zone (UTC until the browser has rendered it). */
export function LocalTime({ value }: { value: string }) {
  const date = new Date(value);
  const [text, setText] = useState(() => `${format(date, 'UTC')} UTC`);
  useEffect(() => setText(format(new Date(value))), [value]);
  return <time dateTime={value}>{text}</time>;
}
