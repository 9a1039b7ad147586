// Intentionally empty: CLinux only exposes system headers to Swift.
#include "CLinux.h"
