-- The client's IP address (requestClientIp: the peer, or behind REFERLOOP_TRUSTED_PROXIES the first
-- untrusted X-Forwarded-For hop) of each dashboard session and audit entry. Rows written before this
-- release keep NULL: their address was never recorded.

-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN     "ipAddress" TEXT;

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "ipAddress" TEXT;
