// A localStorage of the tests' own (Web Storage's interface), and one that refuses every write
// (a private window, a full disk).
export class MemoryStorage {
  constructor(entries = {}) {
    this.map = new Map(Object.entries(entries));
  }
  get length() {
    return this.map.size;
  }
  key(index) {
    return [...this.map.keys()][index] ?? null;
  }
  getItem(key) {
    return this.map.has(key) ? this.map.get(key) : null;
  }
  setItem(key, value) {
    this.map.set(key, String(value));
  }
  removeItem(key) {
    this.map.delete(key);
  }
}

export class RefusingStorage extends MemoryStorage {
  setItem() {
    throw new Error("QuotaExceededError");
  }
}
