/** One GNOME setting the tweaks page offers: a fixed schema and key, never one the browser names freely. */
export interface GnomeKey {
  id: string;
  schema: string;
  key: string;
  label: string;
  hint: string;
}

/**
 * The tweaks: what GNOME Tweaks and Settings offer that people reach for most. A key whose schema is not installed
 * (mutter's, the settings daemon's on a machine without them) is listed as unavailable, never guessed at.
 */
export const GNOME_KEYS: readonly GnomeKey[] = [
  { id: 'color-scheme', schema: 'org.gnome.desktop.interface', key: 'color-scheme', label: 'Style', hint: 'Dark or light for apps that follow the system style.' },
  { id: 'text-scaling-factor', schema: 'org.gnome.desktop.interface', key: 'text-scaling-factor', label: 'Text scaling', hint: 'Larger text everywhere, without changing the display scale.' },
  { id: 'clock-show-seconds', schema: 'org.gnome.desktop.interface', key: 'clock-show-seconds', label: 'Clock shows seconds', hint: 'In the top bar.' },
  { id: 'clock-show-weekday', schema: 'org.gnome.desktop.interface', key: 'clock-show-weekday', label: 'Clock shows the weekday', hint: 'In the top bar.' },
  { id: 'show-battery-percentage', schema: 'org.gnome.desktop.interface', key: 'show-battery-percentage', label: 'Battery percentage', hint: 'Beside the battery icon in the top bar.' },
  { id: 'enable-animations', schema: 'org.gnome.desktop.interface', key: 'enable-animations', label: 'Animations', hint: 'Off makes windows and the overview appear at once.' },
  { id: 'button-layout', schema: 'org.gnome.desktop.wm.preferences', key: 'button-layout', label: 'Title bar buttons', hint: 'Which buttons and where, e.g. appmenu:minimize,maximize,close.' },
  { id: 'center-new-windows', schema: 'org.gnome.mutter', key: 'center-new-windows', label: 'Center new windows', hint: 'New windows open in the middle of the screen.' },
  { id: 'night-light-enabled', schema: 'org.gnome.settings-daemon.plugins.color', key: 'night-light-enabled', label: 'Night light', hint: 'Warmer colours after sunset.' },
];

export const gnomeKey = (id: string): GnomeKey | undefined => GNOME_KEYS.find((k) => k.id === id);
