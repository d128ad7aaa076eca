import { describe, expect, it } from "vitest";
import type { AuditEntryDto } from "@/lib/schemas/audit";
import { csvField } from "@/server/domain/exports/csv-chunks";
import { auditCsv } from "./audit-csv";

const entry = (over: Partial<AuditEntryDto> = {}): AuditEntryDto => ({
  id: "e1",
  createdAt: "2026-11-22T18:30:00.000Z",
  action: "api_key.create",
  actorType: "user",
  actorId: "u1",
  actorLabel: "ada@example.com",
  targetType: "apiKey",
  targetId: "k1",
  targetLabel: "Billing",
  details: { role: "member" },
  userAgent: null,
  ipAddress: null,
  ...over,
});

describe("audit CSV", () => {
  it("writes a header and one CRLF line per entry, details as JSON, the user agent and client address last", () => {
    expect(auditCsv([entry(), entry({ id: "e2", userAgent: "Mozilla/5.0 (X11; Linux x86_64)", ipAddress: "2001:db8::7" })])).toBe(
      "createdAt,action,actorType,actorId,actorLabel,targetType,targetId,targetLabel,details,userAgent,ipAddress\r\n" +
        '2026-11-22T18:30:00.000Z,api_key.create,user,u1,ada@example.com,apiKey,k1,Billing,"{""role"":""member""}",,\r\n' +
        '2026-11-22T18:30:00.000Z,api_key.create,user,u1,ada@example.com,apiKey,k1,Billing,"{""role"":""member""}",Mozilla/5.0 (X11; Linux x86_64),2001:db8::7\r\n',
    );
  });

  it("quotes separators and line breaks, and defuses what a spreadsheet would run as a formula", () => {
    expect(csvField('a "quoted", name')).toBe('"a ""quoted"", name"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    for (const formula of ["=HYPERLINK(\"http://evil\")", "+1", "-2+3", "@SUM(A1)", "\tx"]) expect(csvField(formula).replace(/^"/, "")).toMatch(/^'/);
    expect(auditCsv([entry({ targetLabel: "=1+1" })])).toContain(",'=1+1,");
  });
});
