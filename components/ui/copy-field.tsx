'use client';

import { useState } from 'react';
import { Button } from './button';

/**
 * A value shown once for the reader to copy (an invitation's link, a webhook's secret): selected
 * on focus, with a Copy button where the browser allows it.
 */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="min-h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
        />
        <Button
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
