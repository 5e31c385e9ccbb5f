import type { BuildOptions } from 'esbuild';

export declare const imageBuildSettings: BuildOptions;
