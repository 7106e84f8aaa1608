import { defineErrorCodes } from '@vigil/plugin-sdk';

/** Codes of the network plugin: listening ports and their Stop and Force, connections, firewall, packet capture. */
export const NetworkErrors = defineErrorCodes('NETWORK', {
  PROCESS_GONE: {
    status: 409,
    meaning: 'The process to signal has exited since the list was read.',
    action: 'Refresh the list: the port may be free already, or held by another process now.',
  },
  SOCKET_MOVED: {
    status: 409,
    meaning: 'The process no longer holds the socket the list showed, the socket no longer listens, or the pid now names another process (it was reused): nothing was signalled.',
    action: 'Refresh the list and act on the row as it is now.',
  },
  OWN_SOCKET: {
    status: 403,
    meaning: 'The socket is Vigil\'s own (the dashboard or another of its listeners): it is never signalled from the dashboard.',
    action: 'Stop Vigil itself with its service manager or `kill` if that is what you want.',
  },
  NOT_PERMITTED: {
    status: 403,
    meaning: 'The process belongs to another user and Vigil may not signal it, and the privileged helper was not asked or is not there.',
    action: 'Run the command the message gives in a terminal (it asks for your password), or use the privileged helper\'s Stop.',
  },
  ELEVATION_UNAVAILABLE: {
    status: 503,
    meaning: 'The action needs privileges: Vigil does not run as root and no privileged helper is available.',
    action: 'Turn the privileged helper on (`privilege: {}`, plugins/privilege/README.md: sudo, pkexec or root), or run Vigil as root, then try again.',
  },
  TOOL_MISSING: {
    status: 503,
    meaning: 'The program the action needs is not installed (tcpdump for a capture, the firewall tool for its rules).',
    action: 'Install it with the package manager (`apt install tcpdump`), then try again.',
  },
  TOOL_FAILED: {
    status: 502,
    meaning: 'The firewall tool or tcpdump failed or timed out; the message carries what it printed.',
    action: 'Read its message; run the same command by hand to see more.',
  },
  CAPTURE_RUNNING: {
    status: 409,
    meaning: 'A packet capture is running already: one runs at a time.',
    action: 'Wait for it to end, or stop it, then start the next.',
  },
  CAPTURES_FULL: {
    status: 409,
    meaning: 'As many captures as `network.captures.keep` allows are kept already; nothing is deleted by itself.',
    action: 'Delete a capture you no longer need (Traffic page), or raise `network.captures.keep`.',
  },
  CAPTURE_NOT_FOUND: {
    status: 404,
    meaning: 'No capture file has that name (it was deleted, or the name is not one the list gave).',
    action: 'Pick a capture from GET /api/captures.',
  },
  CAPTURE_INPUT: {
    status: 400,
    meaning: 'A capture request that cannot run: an interface that does not exist, or a filter with characters outside the capture filter language.',
    action: 'Pick an interface from the list, and write the filter in tcpdump\'s language with letters, digits, spaces and . : / ( ) ! & | < > = -.',
  },
  CAPTURE_UNREADABLE: {
    status: 422,
    meaning: 'The capture file is not a pcap file this decoder reads (a pcapng file, or a damaged one).',
    action: 'Download it and open it in Wireshark.',
  },
});
