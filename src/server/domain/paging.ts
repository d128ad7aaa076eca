import { invalidField } from "@/server/domain/errors";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export type PagingInput = { page?: number; pageSize?: number };
export type Paging = { page: number; pageSize: number; skip: number };

/** The one paged-list envelope of the API (the spec's `ActivityPageResponse` shape). */
export type PageEnvelope<T> = {
  items: T[];
  page: number;
  pageSize: number;
  totalCount: number;
  hasNextPage: boolean;
};

/**
 * Page numbers start at 1; PageSize is 1..100 (default 20). The API schema checks the same bounds;
 * the domain repeats them so no caller can ask for an unbounded page.
 */
export function parsePaging(input: PagingInput): Paging {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 1) throw invalidField("page", "min", "Page must be an integer of at least 1.");
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw invalidField("pageSize", "range", `PageSize must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  return { page, pageSize, skip: (page - 1) * pageSize };
}

export function toPage<T>(items: T[], paging: Paging, totalCount: number): PageEnvelope<T> {
  return {
    items,
    page: paging.page,
    pageSize: paging.pageSize,
    totalCount,
    hasNextPage: paging.skip + items.length < totalCount,
  };
}
