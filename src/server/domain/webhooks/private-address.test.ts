import { describe, expect, it } from "vitest";
import { isMetadataAddress, isNonPublicAddress } from "./private-address";

describe("isNonPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.100.100.200",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fd00:ec2::254",
    "fc00::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "64:ff9b::a00:1",
    "2002:7f00:1::",
    "2001:db8::1",
    "not-an-ip",
  ])("%s is refused", (address) => expect(isNonPublicAddress(address)).toBe(true));

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])(
    "%s is public",
    (address) => expect(isNonPublicAddress(address)).toBe(false),
  );
});

/** 169.254.169.254 and 10.0.0.1 in every form an IPv6 address can carry an IPv4 one. */
const embeddings = (v4: [number, number]) => {
  const [high, low] = v4.map((g) => g.toString(16)) as [string, string];
  const [invHigh, invLow] = v4.map((g) => (~g & 0xffff).toString(16)) as [string, string];
  return [
    `::${high}:${low}`, // IPv4-compatible
    `::ffff:${high}:${low}`, // IPv4-mapped
    `::ffff:0:${high}:${low}`, // IPv4-translated
    `64:ff9b::${high}:${low}`, // NAT64
    `64:ff9b:1::${high}:${low}`, // local-use NAT64
    `64:ff9b:1:abcd::${high}:${low}`,
    `2002:${high}:${low}::1`, // 6to4
    `2001:0:${high}:${low}::1`, // Teredo server
    `2001:0:4136:e378:8000:63bf:${invHigh}:${invLow}`, // Teredo client (bits inverted)
  ];
};

describe("an IPv4 address embedded in IPv6 is judged by the IPv4 rules", () => {
  it.each(embeddings([0xa9fe, 0xa9fe]))("%s carries 169.254.169.254: a metadata address", (address) => {
    expect(isMetadataAddress(address)).toBe(true);
    expect(isMetadataAddress(`${address}%eth0`)).toBe(true);
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(["::169.254.169.254", "::ffff:0:169.254.169.254", "64:ff9b:1::169.254.169.254", "::ffff:100.100.100.200", "::6464:64c8"])(
    "%s (dotted or Alibaba) is a metadata address",
    (address) => expect(isMetadataAddress(address)).toBe(true),
  );

  it.each(embeddings([0x0a00, 0x0001]))("%s carries 10.0.0.1: not public", (address) => expect(isNonPublicAddress(address)).toBe(true));
});

describe("isMetadataAddress", () => {
  it.each(["169.254.169.254", "169.254.0.1", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::", "100.100.100.200", "fd00:ec2::254", "fe80::1", "fe80::a9fe:a9fe%eth0"])(
    "%s is refused even where private targets are allowed",
    (address) => expect(isMetadataAddress(address)).toBe(true),
  );

  it.each(["127.0.0.1", "10.1.2.3", "192.168.1.1", "::1", "fd00::1", "100.100.100.201", "93.184.215.14"])("%s is not a metadata address", (address) =>
    expect(isMetadataAddress(address)).toBe(false),
  );
});
