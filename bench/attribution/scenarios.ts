/** The simulated campaigns (README.md here describes them). */
import type { Scenario } from "./simulate";

const BASE: Omit<Scenario, "name" | "description" | "world"> = {
  hours: 24,
  clicksPerHour: 100,
  installRate: 0.3,
  organicPerReferredInstall: 3,
  repeatClickRate: 0.08,
  referrers: 400,
  deterministic: { iOS: 0.3, Android: 0.9 },
};

const WORLD = {
  countries: [["DE", 0.35], ["US", 0.35], ["GB", 0.2], ["BR", 0.1]] as const,
  carriersPerCountry: 4,
  carrierPoolSize: 64,
  homesPerCountry: 20_000,
  venuesPerCountry: 40,
  ipv6CarrierShare: 0.25,
};

export const SCENARIOS: Scenario[] = [
  {
    ...BASE,
    name: "typical",
    description: "4 countries, 100 clicks/h, carrier NAT pools of 64 addresses",
    world: WORLD,
  },
  {
    ...BASE,
    name: "nat-heavy",
    description: "one country, one timezone, IPv4-only carriers with 8 NAT addresses each",
    world: { ...WORLD, countries: [["DE", 1]], carrierPoolSize: 8, ipv6CarrierShare: 0 },
  },
  {
    ...BASE,
    name: "busy",
    description: "4 countries, 400 clicks/h for 8 h, pools of 64",
    hours: 8,
    clicksPerHour: 400,
    world: WORLD,
  },
];

