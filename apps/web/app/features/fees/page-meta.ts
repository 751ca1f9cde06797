/** The `meta` export of /fee, /vip/vipIntroduce and /vip/detail (runs in the browser too). */
export function feesPageMeta(data: { title: string; description: string } | undefined) {
  if (!data) return [];
  return [{ title: data.title }, { name: "description", content: data.description }];
}
