/** IPC channel names shared by main and preload. */
export const IPC_CHANNELS = {
  invoke: 'gridcode:invoke',
  progress: 'gridcode:progress',
  cancel: 'gridcode:cancel',
  pickFiles: 'gridcode:pick-files',
  setApiKey: 'gridcode:set-api-key',
} as const;
