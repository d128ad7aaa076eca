import { Fragment, type ReactNode } from "react";

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\)|\*[^*\s][^*]*\*)/g;

const safeHref = (href: string) => /^(https?:\/\/|\/|#)/.test(href);

/** `code`, **bold**, *emphasis* and [links](url); everything else is plain text. */
export function InlineMarkdown({ text }: { text: string }) {
  const parts = text.split(INLINE);
  return (
    <>
      {parts.map((part, i): ReactNode => {
        if (i % 2 === 0) return <Fragment key={i}>{part}</Fragment>;
        if (part.startsWith("`")) {
          return (
            <code key={i} className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800 [overflow-wrap:anywhere]">
              {part.slice(1, -1)}
            </code>
          );
        }
        if (part.startsWith("**")) return <strong key={i} className="font-semibold">{part.slice(2, -2)}</strong>;
        if (part.startsWith("[")) {
          const [, label = "", href = ""] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(part) ?? [];
          return safeHref(href) ? (
            <a key={i} href={href} className="text-brand-700 underline">
              {label}
            </a>
          ) : (
            <Fragment key={i}>{label}</Fragment>
          );
        }
        return <em key={i}>{part.slice(1, -1)}</em>;
      })}
    </>
  );
}

type Block = { kind: "p"; text: string } | { kind: "ul"; items: string[] } | { kind: "h"; level: number; text: string } | { kind: "pre"; text: string };

/** Enough Markdown for API descriptions: paragraphs, headings, bullet lists (with continuation lines) and fences. */
function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (!line.trim()) {
      i++;
    } else if (line.startsWith("```")) {
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? "").startsWith("```"); i++) body.push(lines[i] ?? "");
      i++;
      blocks.push({ kind: "pre", text: body.join("\n") });
    } else if (/^#{1,6}\s/.test(line)) {
      const [, hashes = "#", text = ""] = /^(#+)\s+(.*)$/.exec(line) ?? [];
      blocks.push({ kind: "h", level: hashes.length, text });
      i++;
    } else if (/^\s*[-*]\s/.test(line)) {
      const items: string[] = [];
      while (i < lines.length && (lines[i] ?? "").trim()) {
        const current = lines[i] ?? "";
        if (/^\s*[-*]\s/.test(current)) items.push(current.replace(/^\s*[-*]\s+/, ""));
        else if (items.length) items[items.length - 1] += ` ${current.trim()}`;
        i++;
      }
      blocks.push({ kind: "ul", items });
    } else {
      const text: string[] = [];
      // A paragraph ends at a blank line, a list, a heading or a code fence.
      while (i < lines.length && (lines[i] ?? "").trim() && !/^(\s*[-*]\s|#{1,6}\s|```)/.test(lines[i] ?? "")) {
        text.push((lines[i] ?? "").trim());
        i++;
      }
      blocks.push({ kind: "p", text: text.join(" ") });
    }
  }
  return blocks;
}

export function Markdown({ source, className = "" }: { source: string; className?: string }) {
  return (
    <div className={`space-y-3 text-sm leading-6 text-zinc-700 ${className}`}>
      {parseBlocks(source).map((block, i) => {
        switch (block.kind) {
          case "h":
            return (
              <p key={i} className="font-semibold text-zinc-900">
                <InlineMarkdown text={block.text} />
              </p>
            );
          case "ul":
            return (
              <ul key={i} className="list-disc space-y-1 pl-5">
                {block.items.map((item, j) => (
                  <li key={j}>
                    <InlineMarkdown text={item} />
                  </li>
                ))}
              </ul>
            );
          case "pre":
            return (
              // Focusable: a keyboard user can scroll a long line sideways.
              <pre key={i} tabIndex={0} className="overflow-x-auto rounded-md bg-zinc-900 p-3 font-mono text-xs text-zinc-100 dark:bg-zinc-50 dark:text-zinc-900">
                {block.text}
              </pre>
            );
          default:
            return (
              <p key={i}>
                <InlineMarkdown text={block.text} />
              </p>
            );
        }
      })}
    </div>
  );
}
