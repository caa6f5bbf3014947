// pdf.js for the preview, loaded on first use as its own chunk. Everything it fetches comes from
// this remote's own build (intranets have no CDN): the worker is an asset of the build, and the
// character maps (without them Chinese CID fonts render blank), the standard fonts, the wasm
// decoders and the ICC profiles are copied into dist/pdfjs/ (rspack.config.cjs). Their URLs are
// made from the remote's public path, which Module Federation sets to where remoteEntry.js was
// loaded from.
import type * as PdfjsModule from 'pdfjs-dist';

export type Pdfjs = typeof PdfjsModule;

declare const __webpack_public_path__: string;

/** The folder this remote is served from, as an absolute URL ending in '/'. */
export function remoteBaseUrl(): string {
  const base = typeof __webpack_public_path__ === 'string' && __webpack_public_path__ ? __webpack_public_path__ : '/';
  return new URL(base, document.baseURI).href;
}

/** The getDocument options that point pdf.js at the build's own data files. */
export function pdfAssetOptions() {
  const base = `${remoteBaseUrl()}pdfjs/`;
  return {
    cMapUrl: `${base}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${base}standard_fonts/`,
    wasmUrl: `${base}wasm/`,
    iccUrl: `${base}iccs/`,
  };
}

let loading: Promise<Pdfjs> | null = null;
let worker: InstanceType<Pdfjs['PDFWorker']> | null = null;

/** One worker for every document of the page (going to the next file does not start another). */
export function pdfWorker(pdfjs: Pdfjs): InstanceType<Pdfjs['PDFWorker']> {
  if (!worker || worker.destroyed) worker = new pdfjs.PDFWorker();
  return worker;
}

/** pdf.js with its worker set up (one load for the page's life; a failed load is tried again). */
export function loadPdfjs(): Promise<Pdfjs> {
  if (!loading) {
    loading = import(/* webpackChunkName: "pdfjs" */ 'pdfjs-dist').then((pdfjs) => {
      pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).href;
      return pdfjs;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
