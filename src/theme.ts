/** The light theme of docs/contract.md#constants: its palette on white background and surfaces. */
import type { Theme } from '@mui/material';
import { defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { THEME_COLORS } from '../shared/constants';

/**
 * The smallest hit area a thumb presses on a phone (below MUI's sm breakpoint, 600 px): 44 × 44 CSS
 * px (WCAG 2.5.5, Apple's HIG). Desktop sizes stay MUI's.
 */
export const TAP_TARGET_PX = 44;
const phone = (theme: Theme) => theme.breakpoints.down('sm');

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
    // On a phone every icon button, switch and checkbox is at least 44 × 44 to the thumb; what is
    // drawn stays the same size (the extra is padding). A switch's input covers its root (the root
    // clips it), so the root is the hit area: as tall as a tap target, the track and thumb centred.
    MuiIconButton: {
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({
          [phone(theme)]: { minWidth: TAP_TARGET_PX, minHeight: TAP_TARGET_PX },
        }),
      },
    },
    MuiSwitch: {
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({
          [phone(theme)]: {
            // medium: track 34 × 14, thumb 20 (MUI's), 58 × 44
            height: TAP_TARGET_PX,
            padding: '15px 12px',
            '& .MuiSwitch-switchBase': { padding: '12px 9px' },
            // small: track 26 × 10, thumb 16 (MUI's), 44 × 44
            '&.MuiSwitch-sizeSmall': { width: TAP_TARGET_PX, padding: '17px 9px' },
            '&.MuiSwitch-sizeSmall .MuiSwitch-switchBase': { padding: '14px 6px' },
          },
        }),
      },
    },
    MuiCheckbox: {
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({
          [phone(theme)]: { padding: 10, '&.MuiCheckbox-sizeSmall': { padding: 12 } },
        }),
      },
    },
  },
};
