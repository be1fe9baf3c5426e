#include "CLazyLibrary.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int wardrobe_library_load(struct wardrobe_library *library, const char **problem) {
    pthread_mutex_lock(&library->lock);
    if (!library->tried) {
        library->tried = 1;
        void *handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *reason = dlerror();
            snprintf(library->problem, sizeof library->problem, "cannot load %s (Debian package %s): %s",
                     library->file, library->package, reason ? reason : "dlopen failed");
        } else {
            size_t found = 0;
            for (; found < library->count; found++) {
                library->functions[found] = dlsym(handle, library->names[found]);
                if (!library->functions[found]) break;
            }
            library->handle = handle;
            if (found == library->count) {
                // Published after every address is written: callers read the flag without the lock.
                __atomic_store_n(&library->loaded, 1, __ATOMIC_RELEASE);
            } else {
                snprintf(library->problem, sizeof library->problem, "%s has no %s", library->file,
                         library->names[found]);
            }
        }
    }
    int loaded = library->loaded;
    pthread_mutex_unlock(&library->lock);
    if (!loaded && problem) *problem = library->problem;
    return loaded;
}

void *wardrobe_library_function(struct wardrobe_library *library, size_t index) {
    if (__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) return library->functions[index];
    const char *problem = NULL;
    if (!wardrobe_library_load(library, &problem)) {
        fprintf(stderr, "wardrobe: %s called without its library: %s\n", library->names[index], problem);
        abort();
    }
    return library->functions[index];
}

void *wardrobe_library_symbol(struct wardrobe_library *library, const char *name) {
    if (!__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) return NULL;
    return dlsym(library->handle, name);
}
