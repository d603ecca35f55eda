/** The light theme of docs/contract.md#constants: its palette on white background and surfaces. */
import { defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { THEME_COLORS } from './domain/constants';

export const theme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    mode: 'light',
    primary: { main: THEME_COLORS.primary },
    secondary: { main: THEME_COLORS.secondary },
    error: { main: THEME_COLORS.error },
    info: { main: THEME_COLORS.info },
    success: { main: THEME_COLORS.success },
    warning: { main: THEME_COLORS.warning },
    background: { default: '#FFFFFF', paper: '#FFFFFF' },
  },
  components: {
    ...defaultLightTheme.components,
    // Dialog buttons end on the same line as the fields above them (MUI's 8 px sat 16 px outside).
    // An outlined chip's border carries its colour; its words stay dark enough to read (WCAG AA:
    // the palette's info, success and warning on white are below 4.5:1).
    MuiChip: {
      styleOverrides: {
        root: { variants: [{ props: { variant: 'outlined' }, style: { color: 'rgba(0, 0, 0, 0.87)' } }] },
      },
    },
    MuiDialogActions: { styleOverrides: { root: { padding: '8px 24px 20px' } } },
  },
};
