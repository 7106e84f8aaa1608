// The server's types of the live answer; `liveSchema` (response-schemas.ts) is its contract and the UI's source.

export interface HostCpuShare { busy: number; user: number; system: number; iowait: number; steal: number }

export interface HostGpu {
  id: string;
  vendor: 'amd' | 'intel' | 'nvidia' | 'other';
  source: 'drm' | 'nvidia-smi';
  name: string | null;
  busy_percent: number | null;
  vram_used_bytes: number | null;
  vram_total_bytes: number | null;
  freq_mhz: number | null;
  max_freq_mhz: number | null;
  celsius: number | null;
  power_w: number | null;
}

export interface HostLive {
  taken_at: string;
  interval_ms: number | null;
  uptime_s: number;
  cpu: { total: HostCpuShare | null; cores: number[]; load: [number, number, number]; running: number; tasks: number };
  memory: {
    total_bytes: number; used_bytes: number; available_bytes: number; cached_bytes: number; buffers_bytes: number; percent: number;
    swap_total_bytes: number; swap_used_bytes: number; swap_percent: number;
  } | null;
  disks: { device: string; mount: string; fs_type: string; total_bytes: number | null; used_bytes: number | null; available_bytes: number | null; percent: number | null }[];
  disk_io: { name: string; whole_disk: boolean; read_bps: number | null; write_bps: number | null; busy_percent: number | null; read_bytes: number; written_bytes: number }[];
  network: {
    name: string; rx_bps: number | null; tx_bps: number | null;
    rx_bytes: number; tx_bytes: number; rx_errors: number; tx_errors: number; rx_dropped: number; tx_dropped: number;
  }[];
  temperatures: { chip: string; label: string; celsius: number }[];
  batteries: { name: string; percent: number; status: string; charging: boolean; plugged: boolean; health_percent: number | null }[];
  gpus: HostGpu[];
}
