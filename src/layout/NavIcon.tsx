/**
 * An entry's icon in the side panel or the user menu, in a room of the same width on every entry so
 * the labels line up: a lazily loaded icon (a defined resource's `menu.icon`) takes its room once
 * loaded, nothing moves; an entry without an icon keeps the room empty.
 */
import { Box, ListItemIcon } from '@mui/material';
import { type ComponentType, Suspense } from 'react';

const room = <Box sx={{ width: 24, height: 24 }} />;

export function NavIcon({ icon: Icon, disabled = false }: { icon?: ComponentType; disabled?: boolean }) {
  return (
    <ListItemIcon sx={{ minWidth: 40, ...(disabled ? { color: 'text.disabled' } : {}) }}>
      {Icon ? (
        <Suspense fallback={room}>
          <Icon />
        </Suspense>
      ) : (
        room
      )}
    </ListItemIcon>
  );
}
