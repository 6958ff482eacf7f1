// Jest runs several test files in one process, and MikroORM keeps entity metadata on
// globalThis, which those files share: each file must start from none, or it would see the
// previous file's entities (and Maps from another VM realm).
delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
