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
