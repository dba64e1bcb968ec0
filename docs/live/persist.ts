/** The worker sandbox's state in IndexedDB, so a reload or a stopped worker resumes an order mid-payment. */
import type { SandboxState } from '../../src/sandbox/state.js';

export interface Saved {
  state: SandboxState;
  /** How far the sandbox clock was moved ahead of real time (POST /sandbox/clock). */
  clockAheadMs: number;
}

const open = () =>
  new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('pay-checkout-docs-sandbox', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('sandbox');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction('sandbox', mode);
      const request = work(transaction.objectStore('sandbox'));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

export const loadSaved = () => run('readonly', (store) => store.get('state') as IDBRequest<Saved | undefined>);
export const save = (saved: Saved) => run('readwrite', (store) => store.put(saved, 'state'));
