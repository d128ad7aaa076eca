import { Fragment } from "react";

/** After these a long URL or id may break: path and query separators, dots, dashes, underscores. */
const BREAK_AFTER = /([/?&=#.\-_:|@]+)/;

/**
 * Text that wraps at sensible points only (a URL after its slashes, an id after its dashes), never in
 * the middle of a word, and still anywhere when one piece is wider than its box.
 */
export function Breakable({ text, className = "" }: { text: string; className?: string }) {
  const parts = text.split(BREAK_AFTER);
  return (
    <span className={`[overflow-wrap:anywhere] ${className}`}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i % 2 === 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
