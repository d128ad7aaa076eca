/** A recorded client IP address for table cells; "Unknown" when none was recorded (older rows, or no address known). */
export function IpAddress({ value }: { value: string | null }) {
  if (!value) return <span className="text-zinc-500">Unknown</span>;
  return <span className="font-mono text-xs break-all text-zinc-700">{value}</span>;
}
