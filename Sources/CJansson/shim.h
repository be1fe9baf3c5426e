// Jansson, a strict JSON reader: its JSON_REJECT_DUPLICATES mode refuses an object
// that names one key twice, which Foundation's reader accepts silently.
#include <jansson.h>
