// Firefox (Debian's firefox-esr, over WebDriver BiDi): the checks of engine-checks.mjs. Firefox
// validates every relaxed-SIMD instruction the relaxed build uses (since 145), so it runs that build;
// served cross-origin isolated, it shares a large flock's steps among workers, as Chromium does.
import { engineChecks } from './engine-checks.mjs';

engineChecks('firefox', { build: 'relaxed-simd', threads: true });
