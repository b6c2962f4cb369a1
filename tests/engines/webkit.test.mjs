// WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver, the engine family of Safari): the
// checks of engine-checks.mjs. JavaScriptCore has no relaxed SIMD unless asked, so the page
// runs the SIMD128 build. WebKitGTK 2.50's MiniBrowser, served the same headers as Firefox,
// is not cross-origin isolated (no SharedArrayBuffer): its flocks step on one thread, as on a
// page that isn't isolated.
import { engineChecks } from './engine-checks.mjs';

engineChecks('webkit', { build: 'simd128' });
