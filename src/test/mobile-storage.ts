import type { StorageAdapter } from "../../packages/react-native/src/index";

/** In-memory storage, as AsyncStorage behaves (shared across "launches" of one install); `data` to look inside. */
export function memoryStorage(): StorageAdapter & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: async (key) => data.get(key) ?? null,
    setItem: async (key, value) => void data.set(key, value),
    removeItem: async (key) => void data.delete(key),
  };
}
