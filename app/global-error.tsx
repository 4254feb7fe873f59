'use client';

// Shown only when the root layout itself fails; it must render its own <html>.
export default function GlobalError({ reset }: { reset: () => void }) {
  return (
    <html lang="en">
      <body
        style={{ fontFamily: 'system-ui, sans-serif', padding: '3rem 1rem', textAlign: 'center' }}
      >
        <h1>Setpoint is having trouble</h1>
        <p>Nothing you saved is lost. Please try again in a moment.</p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </body>
    </html>
  );
}
