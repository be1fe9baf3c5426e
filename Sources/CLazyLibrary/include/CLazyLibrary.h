// A shared library opened with dlopen when one of its functions is first needed, not linked.
// A linked library is loaded and relocated at every start of wardrobe, with every library it
// needs in turn, whether the command uses it or not: libheif (with its HEVC and AV1 codecs)
// cost 1.7 ms of CPU at each start, libmicrohttpd (with GnuTLS) 1.1 ms and libpq 3.5 ms, on
// commands such as `list` that take 15 to 20 ms in all and use none of them.
//
// A wrapper (CHeif, CMicroHTTPD, CPostgreSQL) defines each function wardrobe calls under the
// library's own name and prototype and forwards it to the library's, found by name on first
// use. A function used for the first time in Swift fails to link ("undefined reference") until
// its wrapper lists it.
#ifndef CLAZYLIBRARY_H
#define CLAZYLIBRARY_H
#include <pthread.h>
#include <stddef.h>

struct wardrobe_library {
    /// The file dlopen looks for, e.g. "libheif.so.1", and the Debian package that holds it.
    const char *file;
    const char *package;
    /// The functions wardrobe calls, by name; `functions` gets one address for each.
    const char *const *names;
    void **functions;
    size_t count;
    pthread_mutex_t lock;
    int tried;
    int loaded;
    /// dlopen's handle once loaded, for symbols beyond `names` (`wardrobe_library_symbol`).
    void *handle;
    char problem[512];
};

#define WARDROBE_LIBRARY(file, package, names, functions) \
    { file, package, names, functions, sizeof(names) / sizeof((names)[0]), PTHREAD_MUTEX_INITIALIZER, 0, 0, NULL, "" }

/// Loads the library and finds every function listed, once per process. Returns 1 when it is
/// ready; else 0, with `*problem` (when given) saying why in one line (the library's storage).
int wardrobe_library_load(struct wardrobe_library *library, const char **problem);

/// The address of function `index`, loading the library first. A function called when the
/// library cannot be loaded is wardrobe's own mistake (it asks `wardrobe_library_load` first
/// where a user could meet it): the process stops with the reason.
void *wardrobe_library_function(struct wardrobe_library *library, size_t index);

/// The address of `name` in the library, or NULL when it has none or is not loaded: for a
/// symbol only some builds of the library have, looked for after `wardrobe_library_load`.
void *wardrobe_library_symbol(struct wardrobe_library *library, const char *name);

// What a wrapper writes, from one list of its functions: X(return type, name, (parameters),
// (arguments)), and V(name, (parameters), (arguments)) for those that return nothing.
#define WARDROBE_LAZY_NAME(type, name, parameters, arguments) #name,
#define WARDROBE_LAZY_VOID_NAME(name, parameters, arguments) #name,
#define WARDROBE_LAZY_INDEX(type, name, parameters, arguments) name##_index,
#define WARDROBE_LAZY_VOID_INDEX(name, parameters, arguments) name##_index,
#define WARDROBE_LAZY_FORWARD(library, type, name, parameters, arguments) \
    type name parameters { \
        type (*function) parameters = (type (*) parameters)wardrobe_library_function(&library, name##_index); \
        return function arguments; \
    }
#define WARDROBE_LAZY_VOID_FORWARD(library, name, parameters, arguments) \
    void name parameters { \
        void (*function) parameters = (void (*) parameters)wardrobe_library_function(&library, name##_index); \
        function arguments; \
    }
#endif
