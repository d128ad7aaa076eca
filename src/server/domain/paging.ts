import { LIST_COUNT_MAX } from "@/lib/schemas/common";

/** A page as the schemas parsed it: page from 1, pageSize within its bounds. */
export type PagingInput = { page: number; pageSize: number };
export type Paging = PagingInput & { skip: number };

/** The one paged-list envelope of the API (the spec's `ActivityPageResponse` shape). */
export type PageEnvelope<T> = {
  items: T[];
  page: number;
  pageSize: number;
  totalCount: number;
  hasNextPage: boolean;
};

export const pageWindow = ({ page, pageSize }: PagingInput): Paging => ({ page, pageSize, skip: (page - 1) * pageSize });

export function toPage<T>(items: T[], paging: Paging, totalCount: number): PageEnvelope<T> {
  return {
    items,
    page: paging.page,
    pageSize: paging.pageSize,
    totalCount,
    hasNextPage: paging.skip + items.length < totalCount,
  };
}

/** A page whose count stops past a cap (LIST_COUNT_MAX): totalCountExact says when it did. */
export type CappedPage<T> = PageEnvelope<T> & { totalCountExact: boolean };

/** The page of a list that counted `count` matches, at most LIST_COUNT_MAX + 1; `hasNextPage` as the caller knows it (exactly). */
export function cappedPage<T>(items: T[], paging: Paging, count: number, hasNextPage: boolean): CappedPage<T> {
  const totalCountExact = count <= LIST_COUNT_MAX;
  return { items, page: paging.page, pageSize: paging.pageSize, totalCount: totalCountExact ? count : LIST_COUNT_MAX, hasNextPage, totalCountExact };
}
