"use client";

import { useId, type FormEvent } from "react";
import { Button } from "./button";

export const PAGE_SIZES = [10, 20, 50, 100] as const;

type PaginationProps = {
  /** What is paged, e.g. "App users": names the navigation landmark. */
  label: string;
  page: number;
  pageSize: number;
  totalCount: number;
  /** False when totalCount is a lower bound (a list that counts only so far): shown as "10,000+". */
  totalCountExact?: boolean;
  hasNextPage: boolean;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  pageSizes?: readonly number[];
};

const count = new Intl.NumberFormat("en-GB");

/** Previous / next, a page number to jump to, the total and the page size, for any paged list. */
export function Pagination({
  label,
  page,
  pageSize,
  totalCount,
  totalCountExact = true,
  hasNextPage,
  onPageChange,
  onPageSizeChange,
  pageSizes = PAGE_SIZES,
}: PaginationProps) {
  const inputId = useId();
  const totalPages = Math.max(1, Math.ceil(totalCount / pageSize));
  const first = totalCount === 0 ? 0 : totalCountExact ? Math.min((page - 1) * pageSize + 1, totalCount) : (page - 1) * pageSize + 1;
  const last = totalCountExact ? Math.min(page * pageSize, totalCount) : page * pageSize;
  const more = totalCountExact ? "" : "+";

  function jump(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = Number(new FormData(event.currentTarget).get("page"));
    if (Number.isInteger(value)) onPageChange(Math.min(Math.max(value, 1), totalCountExact ? totalPages : value));
  }

  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-zinc-600">
      <p>
        {first > last ? "No results" : `${count.format(first)}–${count.format(last)} of ${count.format(totalCount)}${more}`}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {onPageSizeChange && (
          <label className="flex items-center gap-2">
            Rows per page
            <select
              value={pageSize}
              onChange={(e) => onPageSizeChange(Number(e.target.value))}
              className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
            >
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
        )}
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          Previous
        </Button>
        <form onSubmit={jump} className="flex items-center gap-1.5">
          <label htmlFor={inputId} className="sr-only">
            Page number
          </label>
          <span aria-hidden>Page</span>
          {/* Keyed by page so the box shows the current page after every move. */}
          <input
            key={page}
            id={inputId}
            name="page"
            type="number"
            min={1}
            max={totalCountExact ? totalPages : undefined}
            defaultValue={page}
            className="w-20 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm tabular-nums"
          />
          <span>
            of {count.format(totalPages)}
            {more}
          </span>
        </form>
        <Button variant="secondary" size="sm" disabled={!hasNextPage} onClick={() => onPageChange(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
