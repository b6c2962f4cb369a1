// WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver, the engine family of Safari): the
// checks of engine-checks.mjs. JavaScriptCore has no relaxed SIMD unless asked, so the page
// runs the SIMD128 build.
import { engineChecks } from './engine-checks.mjs';

engineChecks('webkit', { build: 'simd128' });
