import { createSystem, defaultBaseConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  badgeRecipe,
  breadcrumbSlotRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  nativeSelectSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  skipNavLinkRecipe,
  spinnerRecipe,
  stepsSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textStyles,
  textareaRecipe,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/**
 * Chakra's colour palettes the portal never draws with (besides its own `brand` and `gold`). Each palette is 18
 * tokens (11 shades, 7 semantic ones) that `createSystem` builds into its token dictionary at startup, the biggest
 * part of that call (~100 ms at a phone's speed): these four are 108 of its 685 tokens. Palettes chosen at run time
 * (status badges...) are string literals in web/src; tests/web/theme-palettes.test.ts fails if one of these appears.
 */
export const UNUSED_PALETTES = ['teal', 'cyan', 'purple', 'pink'] as const;

const withoutUnused = <T extends object>(colors: T): T =>
  Object.fromEntries(Object.entries(colors).filter(([name]) => !(UNUSED_PALETTES as readonly string[]).includes(name))) as T;

/**
 * Chakra's default theme (`defaultConfig`) with only the recipes of the components the portal uses: the default
 * holds ~75 recipes (date pickers, colour pickers, carousels...) that all ship in the entry script. A component
 * whose recipe is missing renders unstyled, so using a new Chakra component means adding its recipe here (its key
 * is the `key` of `useRecipe`/`useSlotRecipe` in the component's source under node_modules/@chakra-ui/react).
 */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens: { ...tokens, colors: withoutUnused(tokens.colors!) },
    semanticTokens: { ...semanticTokens, colors: withoutUnused(semanticTokens.colors!) },
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      input: inputRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      skipNavLink: skipNavLinkRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
      icon: iconRecipe,
      checkmark: checkmarkRecipe,
      radiomark: radiomarkRecipe,
    },
    slotRecipes: {
      accordion: accordionSlotRecipe,
      alert: alertSlotRecipe,
      breadcrumb: breadcrumbSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      list: listSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
      steps: stepsSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
    },
    textStyles,
    layerStyles,
    animationStyles,
  },
});


/**
 * The portal's Chakra system: the Halal green as the `brand` palette (use `colorPalette="brand"`), and the
 * self-hosted fonts (main.tsx imports them). Inter has no Arabic letters, so Arabic text falls through to
 * Noto Sans Arabic in both languages and Latin text keeps Inter.
 */
const config = defineConfig({
  globalCss: {
    'html, body': { minHeight: '100%' },
    body: { bg: 'bg.subtle', color: 'fg' },
    // Icons that point "forward" (chevrons, arrows) flip with the reading direction.
    '[dir=rtl] .flip-rtl': { transform: 'scaleX(-1)' },
    // The floating chat button never covers a modal dialog's actions: it steps aside while one is open. Important,
    // because these global styles are in Chakra's `base` layer and the button's own `display` in the later
    // `recipes` layer, which wins over any specificity unless the earlier layer's declaration is important.
    'body:has([role=dialog][aria-modal=true]) [data-testid=chat-button]': { display: 'none !important' },
    'body:has([role=alertdialog][aria-modal=true]) [data-testid=chat-button]': { display: 'none !important' },
  },
  theme: {
    // lg is 992 px, the spec's small-screen limit: `{ base: <small>, lg: <large> }` switches exactly there.
    breakpoints: { sm: '480px', md: '768px', lg: '992px', xl: '1280px', '2xl': '1536px' },
    tokens: {
      fonts: {
        heading: { value: "Inter, 'Noto Sans Arabic', system-ui, sans-serif" },
        body: { value: "Inter, 'Noto Sans Arabic', system-ui, sans-serif" },
      },
      colors: {
        brand: {
          50: { value: '#e8f5ef' },
          100: { value: '#c6e6d6' },
          200: { value: '#9fd4ba' },
          300: { value: '#72c09c' },
          400: { value: '#47a97d' },
          500: { value: '#1f8f62' },
          600: { value: '#117650' },
          700: { value: '#0b5e40' },
          800: { value: '#074631' },
          900: { value: '#032e20' },
          950: { value: '#021d14' },
        },
        gold: {
          500: { value: '#b8913a' },
          600: { value: '#9a7628' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: '{colors.brand.700}' },
          contrast: { value: 'white' },
          fg: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: '{colors.brand.500}' },
        },
        // Chakra's default (red.500 on white, 3.8:1) fails WCAG AA for the small validation messages; red.700 is 6.5:1.
        fg: { error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.300}' } } },
      },
    },
  },
});

let full: SystemContext | undefined;
let app: SystemContext | undefined;

/**
 * The whole system, its global CSS included: what the build writes to a stylesheet (global-css.ts). Built on first
 * use, not when this module is evaluated: `createSystem` is the biggest single piece of the entry script's work
 * (~100 ms at a phone's speed), and main.tsx runs it in a task of its own while the texts are on their way.
 */
export function fullSystem(): SystemContext {
  return (full ??= createSystem(defaultBaseConfig, chakraTheme, config));
}

/**
 * The system the app provides. Its global CSS (layer order, reset, keyframes, global styles and ~700 token
 * variables) is in the build's stylesheet (vite.config.ts, chakraGlobalCss), so Chakra's provider inserts none
 * through emotion: that serialising and parsing was ~70 ms of the first render on a phone-speed CPU. In the
 * browser build `createSystem` does not even compute it (web/build/chakra-system.ts).
 */
export function appSystem(): SystemContext {
  return (app ??= { ...fullSystem(), _global: [] });
}

/** Spec 01 section 9: screens narrower than 992 px count as small (drawer menu instead of the header menu). */
export const SMALL_SCREEN_MAX_PX = 991;
export const LARGE_SCREEN_QUERY = '(min-width: 992px)';
