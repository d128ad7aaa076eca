/**
 * The synthetic population: phones with the screen sizes, OS versions, browsers, timezones and
 * locales of a real audience, on the networks real phones use (carrier NAT pools shared by many,
 * homes shared by a family, public Wi-Fi shared by strangers, IPv6 carriers giving each phone its
 * own /64). Each device can show itself the way the landing page sees it (a user agent and the
 * script's payload) and the way the app sees it (init-app-user's `device`), with the quirks between
 * the two: frozen user-agent versions, rounded Android sizes, system bars counted on one side only,
 * a locale the app overrides, a network switch or an OS update between click and install.
 */
import type { ClickPayload, DeviceInput } from "@/lib/schemas/attribution";
import type { Random } from "./random";

export type Country = {
  code: string;
  timezones: readonly (readonly [string, number])[];
  locales: readonly (readonly [string, number])[];
  iosShare: number;
};

export const COUNTRIES: Record<string, Country> = {
  DE: { code: "DE", timezones: [["Europe/Berlin", 1]], locales: [["de-DE", 0.85], ["en-US", 0.07], ["tr-TR", 0.04], ["en-GB", 0.04]], iosShare: 0.35 },
  US: {
    code: "US",
    timezones: [["America/New_York", 0.47], ["America/Chicago", 0.29], ["America/Denver", 0.07], ["America/Los_Angeles", 0.17]],
    locales: [["en-US", 0.86], ["es-US", 0.1], ["zh-CN", 0.04]],
    iosShare: 0.58,
  },
  GB: { code: "GB", timezones: [["Europe/London", 1]], locales: [["en-GB", 0.9], ["en-US", 0.06], ["pl-PL", 0.04]], iosShare: 0.5 },
  BR: { code: "BR", timezones: [["America/Sao_Paulo", 0.85], ["America/Manaus", 0.15]], locales: [["pt-BR", 0.95], ["en-US", 0.05]], iosShare: 0.15 },
};

/** Logical screens: iPhones in points (exact), Android panels in pixels and density (dp are fractional). */
const IPHONES: readonly (readonly [[number, number, number], number])[] = [
  [[375, 667, 2], 0.06], // SE 2/3, 8
  [[375, 812, 3], 0.07], // X, XS, 11 Pro, 12/13 mini
  [[414, 896, 2], 0.07], // XR, 11
  [[390, 844, 3], 0.28], // 12, 13, 14
  [[393, 852, 3], 0.25], // 14 Pro, 15, 16
  [[428, 926, 3], 0.08], // 12/13 Pro Max, 14 Plus
  [[430, 932, 3], 0.12], // 14 Pro Max, 15 Plus, 16 Plus
  [[402, 874, 3], 0.04], // 16 Pro
  [[440, 956, 3], 0.03], // 16 Pro Max
];
const ANDROID_PANELS: readonly (readonly [[number, number, number], number])[] = [
  [[1080, 2400, 3], 0.22], // Galaxy A series: 360 x 800
  [[1080, 2340, 3], 0.12], // Galaxy S21-S23: 360 x 780
  [[1080, 2340, 2.8125], 0.05], // 384 x 832
  [[1080, 2400, 2.625], 0.15], // Pixel 6/7: 411.4 x 914.3
  [[1080, 2400, 2.75], 0.12], // Redmi, Poco: 392.7 x 872.7
  [[1080, 2340, 2.625], 0.08], // 411.4 x 891.4
  [[720, 1600, 2], 0.08], // budget phones: 360 x 800 at density 2
  [[1344, 2992, 3], 0.04], // Pixel 8 Pro: 448 x 997.3
  [[1080, 2400, 2.5], 0.06], // 432 x 960
  [[1440, 3120, 3.5], 0.04], // Ultra: 411.4 x 891.4 at 3.5
  [[1220, 2712, 2.75], 0.04], // 443.6 x 986.2
];
const IOS_VERSIONS: readonly (readonly [[number, number], number])[] = [
  [[26, 1], 0.2],
  [[26, 0], 0.1],
  [[18, 6], 0.25],
  [[18, 5], 0.15],
  [[18, 3], 0.05],
  [[17, 6], 0.12],
  [[17, 5], 0.03],
  [[16, 7], 0.06],
  [[15, 8], 0.04],
];
const ANDROID_VERSIONS: readonly (readonly [number, number])[] = [
  [15, 0.22],
  [14, 0.33],
  [13, 0.2],
  [12, 0.1],
  [11, 0.08],
  [10, 0.07],
];

type Browser = "safari" | "chrome" | "samsung" | "instagram";

export type Carrier = { ipv6: boolean; pool: string[]; v6Prefix: string };

export type World = {
  countries: readonly (readonly [Country, number])[];
  carriers: Map<string, Carrier[]>;
  homes: Map<string, string[]>;
  venues: Map<string, string[]>;
  devicesCreated: number;
};

export type Device = {
  id: number;
  country: Country;
  os: "iOS" | "Android";
  version: [number, number];
  /** Logical size as the app measures it (fractional dp on Android) and the density. */
  screen: [number, number, number];
  /** Android: the app's height leaves out the navigation bar (React Native reports vary by device). */
  appOmitsNavBar: boolean;
  timezone: string;
  locale: string;
  appLocale: string;
  browser: Browser;
  carrier: Carrier;
  home: string;
};

/** A network attachment: the public address the device shows. */
export type Attachment = { kind: "cellular" | "home" | "venue"; ip: string };

export type WorldOptions = {
  countries: readonly (readonly [string, number])[];
  /** Public IPv4 addresses in each carrier's NAT pool that this app's traffic lands on. */
  carrierPoolSize: number;
  carriersPerCountry: number;
  /** Households per country; devices are spread over them (a family shares a home address). */
  homesPerCountry: number;
  /** Cafés, campuses, offices per country (strangers behind one address). */
  venuesPerCountry: number;
  /** Share of carriers that give each phone its own IPv6 /64 instead of a shared IPv4 NAT address. */
  ipv6CarrierShare: number;
};

const hex = (random: Random) => random.int(0x10000).toString(16);
const ipv4 = (random: Random, prefix?: string) =>
  prefix ? `${prefix}.${1 + random.int(254)}` : `${11 + random.int(180)}.${random.int(256)}.${random.int(256)}.${1 + random.int(254)}`;
const prefix24 = (random: Random) => `${11 + random.int(180)}.${random.int(256)}.${random.int(256)}`;

export function createWorld(random: Random, options: WorldOptions): World {
  const carriers = new Map<string, Carrier[]>();
  const homes = new Map<string, string[]>();
  const venues = new Map<string, string[]>();
  for (const [code] of options.countries) {
    carriers.set(
      code,
      Array.from({ length: options.carriersPerCountry }, () => {
        // A NAT pool spans a few /24s; this app sees a handful of its addresses.
        const blocks = Array.from({ length: Math.max(1, Math.ceil(options.carrierPoolSize / 16)) }, () => prefix24(random));
        return {
          ipv6: random.chance(options.ipv6CarrierShare),
          pool: Array.from({ length: options.carrierPoolSize }, () => ipv4(random, random.pick(blocks))),
          v6Prefix: `2a0${random.int(10)}:${hex(random)}:${hex(random)}`,
        };
      }),
    );
    homes.set(
      code,
      Array.from({ length: options.homesPerCountry }, () =>
        random.chance(0.3) ? `2a02:${hex(random)}:${hex(random)}:${hex(random)}` : ipv4(random),
      ),
    );
    venues.set(
      code,
      Array.from({ length: options.venuesPerCountry }, () => ipv4(random)),
    );
  }
  return { countries: options.countries.map(([code, weight]) => [COUNTRIES[code]!, weight] as const), carriers, homes, venues, devicesCreated: 0 };
}

export function createDevice(random: Random, world: World): Device {
  const country = random.weighted(world.countries);
  const os = random.chance(country.iosShare) ? "iOS" : "Android";
  const locale = random.weighted(country.locales);
  const appLocaleRoll = random.next();
  const appLocale =
    appLocaleRoll < 0.92 ? locale : appLocaleRoll < 0.97 ? `${locale.split("-")[0]}-${country.code === "US" ? "GB" : "US"}` : "en-US";
  let screen: [number, number, number];
  if (os === "iOS") screen = random.weighted(IPHONES);
  else {
    const [w, h, density] = random.weighted(ANDROID_PANELS);
    screen = [w / density, h / density, density];
  }
  return {
    id: ++world.devicesCreated,
    country,
    os,
    version: os === "iOS" ? random.weighted(IOS_VERSIONS) : [random.weighted(ANDROID_VERSIONS), 0],
    screen,
    appOmitsNavBar: os === "Android" && random.chance(0.1),
    timezone: random.weighted(country.timezones),
    locale,
    appLocale,
    browser:
      os === "iOS"
        ? random.weighted<Browser>([["safari", 0.7], ["chrome", 0.1], ["instagram", 0.2]])
        : random.weighted<Browser>([["chrome", 0.7], ["samsung", 0.2], ["instagram", 0.1]]),
    carrier: random.pick(world.carriers.get(country.code)!),
    home: random.pick(world.homes.get(country.code)!),
  };
}

function cellular(random: Random, device: Device): Attachment {
  const ip = device.carrier.ipv6
    ? `${device.carrier.v6Prefix}:${hex(random)}::${hex(random)}:${hex(random)}`
    : random.pick(device.carrier.pool);
  return { kind: "cellular", ip };
}

function atHome(random: Random, device: Device): Attachment {
  // An IPv6 home's devices use temporary addresses inside the home's /64.
  const ip = device.home.includes(":") ? `${device.home}:${hex(random)}:${hex(random)}:${hex(random)}:${hex(random)}` : device.home;
  return { kind: "home", ip };
}

export function attachAtClick(random: Random, world: World, device: Device): Attachment {
  const roll = random.next();
  if (roll < 0.55) return cellular(random, device);
  if (roll < 0.93) return atHome(random, device);
  return { kind: "venue", ip: random.pick(world.venues.get(device.country.code)!) };
}

/**
 * Where the device is when the app first launches. Mostly where it clicked; a carrier may have
 * handed out a new address (new session); some devices moved between Wi-Fi and cellular.
 */
export function attachAtInstall(random: Random, device: Device, atClick: Attachment, delayMs: number): Attachment {
  const switchChance = delayMs < 10 * 60_000 ? 0.1 : 0.25;
  if (random.chance(switchChance)) return atClick.kind === "cellular" ? atHome(random, device) : cellular(random, device);
  if (atClick.kind === "cellular" && random.chance(delayMs < 10 * 60_000 ? 0.1 : 0.3)) return cellular(random, device);
  if (atClick.kind === "home") {
    // Same home; IPv6 rotates the interface id, and a dual-stack home sometimes answers over IPv4.
    const again = atHome(random, device);
    return again.ip.includes(":") && random.chance(0.03) ? { ...again, ip: ipv4(random) } : again;
  }
  return atClick;
}

const iosToken = ([major, minor]: [number, number]) => (major >= 26 ? (minor >= 1 ? "18_7" : "18_6") : `${major}_${minor}`);

export function userAgent(device: Device): string {
  const [major, minor] = device.version;
  if (device.os === "iOS") {
    const os = `Mozilla/5.0 (iPhone; CPU iPhone OS ${iosToken(device.version)} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)`;
    if (device.browser === "safari") return `${os} Version/${major}.${minor} Mobile/15E148 Safari/604.1`;
    if (device.browser === "chrome") return `${os} CriOS/138.0.7204.156 Mobile/15E148 Safari/604.1`;
    return `${os} Mobile/15E148 Instagram 394.0.0.46.81 (iPhone15,2; iOS ${major}_${minor}; en_US; en; scale=3.00; 1179x2556; 789473215)`;
  }
  if (device.browser === "chrome")
    return "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36";
  if (device.browser === "samsung")
    return `Mozilla/5.0 (Linux; Android ${major}; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36`;
  return `Mozilla/5.0 (Linux; Android ${major}; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/127.0.6533.103 Mobile Safari/537.36 Instagram 343.0.0.33.101 Android`;
}

/** What the landing page's script sends. */
export function clickPayload(random: Random, device: Device): Omit<ClickPayload, "clickId"> {
  const [w, h, density] = device.screen;
  // Browsers report whole CSS pixels; Android swaps the sides in landscape.
  const [width, height] = device.os === "Android" && random.chance(0.03) ? [Math.round(h), Math.round(w)] : [Math.round(w), Math.round(h)];
  return {
    screenWidth: width,
    screenHeight: height,
    pixelRatio: density,
    timezone: device.timezone,
    locale: device.locale,
    maxTouchPoints: 5,
    // Chromium's client hint, when it answers within the page's short wait.
    platformVersion: device.browser === "chrome" && device.os === "Android" && random.chance(0.9) ? `${device.version[0]}.0.0` : null,
  };
}

/** What the app sends as init-app-user's `device` (React Native: Dimensions, PixelRatio, Intl). */
export function appDevice(device: Device): DeviceInput {
  const [w, h, density] = device.screen;
  return {
    os: device.os,
    osVersion: device.os === "iOS" ? `${device.version[0]}.${device.version[1]}` : String(device.version[0]),
    screenWidth: w,
    screenHeight: device.appOmitsNavBar ? h - 48 : h,
    pixelRatio: density,
    timezone: device.timezone,
    locale: device.appLocale,
  };
}

/** A rare OS update between the click and the first launch. */
export function maybeUpdate(random: Random, device: Device): Device {
  const roll = random.next();
  if (device.os === "iOS" && roll < 0.01) return { ...device, version: [device.version[0], device.version[1] + 1] };
  if (roll > 0.998) return { ...device, version: [device.version[0] + 1, 0] };
  return device;
}
