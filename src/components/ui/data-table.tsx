import type { ReactNode } from "react";

export type SortOrder = "asc" | "desc";
export type SortState<K extends string = string> = { sortBy: K; sortOrder: SortOrder };

export type Column<T, K extends string = string> = {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The server's sort field: the header becomes a sort button. */
  sortKey?: K;
  /** The order of a first click on this header (text columns read best A to Z). */
  firstOrder?: SortOrder;
  align?: "left" | "right";
  className?: string;
  /** Hidden on phones (below the sm breakpoint) so the key columns and the actions fit. */
  secondary?: boolean;
};

/*
 * On phones (below sm) each row is a card: the table's boxes stack, each cell under its header's name
 * (data-label), so every row's actions are in view without scrolling sideways. On small tablets the
 * first column (the row's name) stays in view while the rest scrolls under it; it needs its own
 * background for that, following the row's hover.
 */
const STICKY_FIRST = "sm:first:sticky sm:first:left-0 sm:first:z-[1] sm:first:bg-white md:first:shadow-none sm:first:shadow-[1px_0_0_var(--color-zinc-200)]";
const hideOnPhone = (column: { secondary?: boolean }) => (column.secondary ? "max-sm:hidden" : "");
const CARD_CELL =
  "max-sm:flex max-sm:min-w-0 max-sm:items-baseline max-sm:gap-3 max-sm:py-1 max-sm:pr-0 max-sm:[overflow-wrap:anywhere] max-sm:before:w-24 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:font-medium max-sm:before:tracking-wide max-sm:before:text-zinc-500 max-sm:before:uppercase max-sm:before:content-[attr(data-label)]";

type DataTableProps<T, K extends string> = {
  /** Names the table for screen readers and tests ("App users"). */
  caption: string;
  columns: readonly Column<T, K>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  sort?: SortState<K>;
  onSortChange?: (sort: SortState<K>) => void;
  /** Shown in place of the rows when there are none. */
  empty?: ReactNode;
  /** Rows shown are from the previous request while the next one loads. */
  stale?: boolean;
};

const ariaSort = (active: boolean, order: SortOrder) => (active ? (order === "asc" ? "ascending" : "descending") : "none");

/** The one table of the dashboard's lists: optional server-side sorting, nothing else. */
export function DataTable<T, K extends string = string>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  onSortChange,
  empty = "Nothing here yet.",
  stale,
}: DataTableProps<T, K>) {
  return (
    // relative: the scroll box contains the sr-only (absolutely placed) header texts too, which would
    // otherwise widen the page on a phone.
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm max-sm:block" aria-busy={stale || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500 max-sm:sr-only">
          <tr>
            {columns.map((column) => {
              const align = column.align === "right" ? "text-right" : "";
              if (!column.sortKey || !sort || !onSortChange) {
                return (
                  <th key={column.id} scope="col" className={`py-2 pr-4 font-medium whitespace-nowrap last:pr-0 ${STICKY_FIRST} ${hideOnPhone(column)} ${align}`}>
                    {column.header}
                  </th>
                );
              }
              const key = column.sortKey;
              const active = sort.sortBy === key;
              const next: SortOrder = active ? (sort.sortOrder === "asc" ? "desc" : "asc") : (column.firstOrder ?? "desc");
              return (
                <th key={column.id} scope="col" aria-sort={ariaSort(active, sort.sortOrder)} className={`py-2 pr-4 font-medium last:pr-0 ${STICKY_FIRST} ${hideOnPhone(column)} ${align}`}>
                  <button
                    type="button"
                    onClick={() => onSortChange({ sortBy: key, sortOrder: next })}
                    className={`inline-flex items-center gap-1 whitespace-nowrap uppercase tracking-wide hover:text-zinc-900 ${active ? "text-zinc-900" : ""}`}
                  >
                    {column.header}
                    <span aria-hidden className={active ? "" : "text-zinc-300"}>
                      {active && sort.sortOrder === "asc" ? "▲" : "▼"}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={`divide-y divide-zinc-100 transition-opacity max-sm:block ${stale ? "opacity-60" : ""}`}>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="py-6 text-center text-zinc-500 max-sm:block">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className="group hover:bg-zinc-50 max-sm:block max-sm:py-2">
                {columns.map((column) => (
                  <td
                    key={column.id}
                    data-label={column.header}
                    className={`py-2.5 pr-4 align-top last:pr-0 ${STICKY_FIRST} ${column.secondary ? "max-sm:hidden" : CARD_CELL} sm:group-hover:first:bg-zinc-50 ${column.align === "right" ? "sm:text-right tabular-nums" : ""} ${column.className ?? ""}`}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
