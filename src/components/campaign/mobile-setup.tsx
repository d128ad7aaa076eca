"use client";

import { Card } from "@/components/ui/card";
import { KEY_PLACEHOLDER, SetupStep, USER_HASH_SNIPPET, useAppOrigin } from "./widget-setup";

/**
 * A Mobile project's integration: the @referloop/react-native package (see its README for the device
 * adapter) with this app's address and the project's publishable key, and the server line that signs
 * the user's id. No web widget, so nothing about script tags or allowed origins.
 */
export function MobileSetup({ publishableKey, identityVerification }: { publishableKey?: string; identityVerification?: boolean }) {
  const origin = useAppOrigin();
  const create = `import { createReferloopMobile } from "@referloop/react-native";

export const referloop = createReferloopMobile({
  key: "${publishableKey ?? KEY_PLACEHOLDER}",
  apiBaseUrl: "${origin}",
  storage: AsyncStorage, // getItem / setItem / removeItem
  device,                // os, screen, install referrer, clipboard, initial link: see the README
});
referloop.start(); // at app start, before sign-in`;
  const identify = `const result = await referloop.identify({ userId: user.id, userHash });
if (result.ok) shareButton.link = referloop.getReferralLink();`;
  return (
    <Card title="Install the mobile client" description="In your React Native app: referral links open the store, and the first launch is matched to the tap.">
      <div className="space-y-4 text-sm text-zinc-600">
        <SetupStep label="1. Add the package to your app" code="npm install @referloop/react-native" copyLabel="install command">
          <p>No native module: it works in Expo and bare React Native alike.</p>
        </SetupStep>
        <SetupStep label="2. Create the client once, at app start" code={create} copyLabel="client set-up">
          {!publishableKey && <p>Replace {KEY_PLACEHOLDER} with the project&apos;s publishable key.</p>}
          <p>The device adapter (install referrer on Android, clipboard on iOS, links) is described in the package&apos;s README.</p>
        </SetupStep>
        <SetupStep label="3. Once the user has signed in" code={identify} copyLabel="identify call">
          <p>USER_ID is your own id of the user; the hash proves it is them (step 4).</p>
        </SetupStep>
        <SetupStep label="4. On your server, sign the user's id (userHash)" code={USER_HASH_SNIPPET} copyLabel="userHash code">
          <p>
            The project secret stays on your server.{" "}
            {identityVerification
              ? "Identity verification is on: a call without a valid userHash is refused."
              : "Without a valid userHash a call may create a new user and read its link, but cannot change a user who already exists or bind them to a referral."}
          </p>
        </SetupStep>
        <p>Set the app&apos;s store links and icon in the project&apos;s settings: the referral landing page sends visitors there.</p>
      </div>
    </Card>
  );
}
