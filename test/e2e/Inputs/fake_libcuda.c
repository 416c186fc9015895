/* A pretend libcuda.so.1 for scripts/gpu_diff_runner.py --selftest
 * --fake-libcuda: the driver API functions the runner calls, with host
 * memory as device memory, so that the runner's ctypes calls (argument
 * types, the JIT option arrays, kernelParams) are exercised without a GPU.
 *
 * A module is its PTX text (cuModuleLoadDataEx, or cuModuleLoadData given
 * text, as the selftest's pretend cubins are) or a real cubin from ptxas
 * (cuModuleLoadData given an ELF file: its kernels are its global
 * functions, their parameters' sizes come from their .nv.info sections
 * (EIATTR_KPARAM_INFO), its globals are its object symbols). A kernel does
 * what `// fake-kernel NAME: WHAT` in the text says (a cubin's kernels
 * copy): `copy` (the default) writes the bytes of every argument, in
 * order, at the start of the buffer its first pointer parameter points to
 * (PTX: the first `.ptr` parameter; a cubin: the first 8-byte argument
 * holding an address cuMemAlloc gave), and adds 1 to the global `counter`
 * if the module has one; `fault` leaves the context failed
 * (CUDA_ERROR_ILLEGAL_ADDRESS on every later call, as a real fault does).
 * `// fake-module: loadfail` makes cuModuleLoadDataEx fail with a JIT log
 * (cuModuleLoadData without one). `fake_cubin_loads` counts the modules
 * cuModuleLoadData made.
 *
 * Build: clang -shared -fPIC -O1 fake_libcuda.c -o libcuda.so.1
 */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum { SUCCESS = 0, INVALID_VALUE = 1, INVALID_IMAGE = 200, NOT_FOUND = 500, INVALID_PTX = 218, ILLEGAL_ADDRESS = 700 };

static int failed;   /* sticky: the context is gone */
static int pending;  /* a fault to report at the next synchronisation */
int fake_cubin_loads;

enum { MAX_GLOBALS = 64, MAX_KERNELS = 64, MAX_PARAMS = 64, MAX_ALLOCS = 4096 };

typedef struct {
  char name[256];
  int count;                 /* parameters */
  size_t sizes[MAX_PARAMS];  /* bytes of each */
  int pointer[MAX_PARAMS];   /* 1: a pointer, 0: not, -1: unknown (a cubin's) */
  int fault;
} Kernel;

typedef struct {
  char names[MAX_GLOBALS][64];
  void *globals[MAX_GLOBALS];
  size_t sizes[MAX_GLOBALS];
  int count;
  Kernel kernels[MAX_KERNELS];
  int kernel_count;
} Module;

typedef struct {
  Module *module;
  Kernel *kernel;
} Function;

static struct { void *p; size_t size; } allocs[MAX_ALLOCS];

static int is_allocation(CUdeviceptr p) {
  for (int i = 0; i < MAX_ALLOCS; ++i)
    if (allocs[i].p && (CUdeviceptr)(uintptr_t)allocs[i].p == p)
      return 1;
  return 0;
}

static void add_global(Module *m, const char *name, size_t len) {
  if (m->count == MAX_GLOBALS)
    return;
  snprintf(m->names[m->count], 64, "%.*s", (int)len, name);
  m->globals[m->count] = calloc(1, 16);
  m->sizes[m->count++] = 16;
}

CUresult cuInit(unsigned flags) { return flags ? INVALID_VALUE : SUCCESS; }
CUresult cuDriverGetVersion(int *v) { *v = 12080; return SUCCESS; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return SUCCESS; }
CUresult cuDeviceGet(int *d, int ordinal) { *d = ordinal; return ordinal ? INVALID_VALUE : SUCCESS; }
CUresult cuDeviceGetName(char *name, int len, int dev) {
  (void)dev;
  snprintf(name, (size_t)len, "fake libcuda");
  return SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, int attribute, int dev) {
  (void)dev;
  *v = attribute == 75 ? 9 : attribute == 76 ? 0 : 0;
  return SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = (void *)0x1; return SUCCESS; }
CUresult cuCtxSetCurrent(void *ctx) { return ctx ? SUCCESS : INVALID_VALUE; }
CUresult cuCtxSetLimit(int limit, size_t value) { return limit == 0 && value >= 1024 ? SUCCESS : INVALID_VALUE; }

CUresult cuGetErrorName(CUresult error, const char **s) {
  *s = error == ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" : error == INVALID_PTX ? "CUDA_ERROR_INVALID_PTX"
                                                                                          : "CUDA_ERROR_FAKE";
  return SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char **s) {
  *s = error == ILLEGAL_ADDRESS ? "an illegal memory access was encountered" : "fake error";
  return SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) {
  if (failed)
    return ILLEGAL_ADDRESS;
  void *q = calloc(1, size ? size : 1);
  for (int i = 0; i < MAX_ALLOCS; ++i)
    if (!allocs[i].p) {
      allocs[i].p = q;
      allocs[i].size = size;
      break;
    }
  *p = (CUdeviceptr)(uintptr_t)q;
  return SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  for (int i = 0; i < MAX_ALLOCS; ++i)
    if (allocs[i].p && (CUdeviceptr)(uintptr_t)allocs[i].p == p)
      allocs[i].p = NULL;
  free((void *)(uintptr_t)p);
  return failed ? ILLEGAL_ADDRESS : SUCCESS;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
  if (failed)
    return ILLEGAL_ADDRESS;
  memcpy((void *)(uintptr_t)dst, src, n);
  return SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  if (failed)
    return ILLEGAL_ADDRESS;
  memcpy(dst, (const void *)(uintptr_t)src, n);
  return SUCCESS;
}

/* A module from PTX text: its globals (`.global ... NAME;` lines, not
 * .extern, 16 bytes each) and its kernels (`.entry NAME(...)`). */
static Module *module_of_text(const char *text) {
  Module *m = calloc(1, sizeof *m);
  for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strncmp(line, ".global", 7) && strncmp(line, ".visible .global", 16))
      continue;
    const char *end = strchr(line, ';');
    const char *name = end;
    while (name > line && (name[-1] == '_' || name[-1] == '$' || (name[-1] >= '0' && name[-1] <= '9') ||
                           (name[-1] >= 'a' && name[-1] <= 'z') || (name[-1] >= 'A' && name[-1] <= 'Z') ||
                           name[-1] == '[' || name[-1] == ']'))
      --name;
    add_global(m, name, strcspn(name, "[;"));
  }
  for (const char *at = strstr(text, ".entry "); at && m->kernel_count < MAX_KERNELS; at = strstr(at + 1, ".entry ")) {
    Kernel *k = &m->kernels[m->kernel_count++];
    const char *name = at + 7;
    const char *open = strchr(name, '(');
    if (!open)
      break;
    snprintf(k->name, sizeof k->name, "%.*s", (int)(open - name), name);
    char pattern[300];
    snprintf(pattern, sizeof pattern, "// fake-kernel %s: fault", k->name);
    k->fault = strstr(text, pattern) != NULL;
    /* The parameters' sizes, from the .entry's list. */
    const char *p = open + 1;
    const char *close = strchr(p, ')');
    while (p < close && k->count < MAX_PARAMS) {
      const char *comma = strchr(p, ',');
      const char *end = comma && comma < close ? comma : close;
      char decl[256];
      snprintf(decl, sizeof decl, "%.*s", (int)(end - p), p);
      if (!strstr(decl, ".param"))
        break;
      size_t size = 0;
      char *bracket = strchr(decl, '[');
      if (bracket)
        size = strtoul(bracket + 1, NULL, 10);
      else if (strstr(decl, "64"))
        size = 8;
      else if (strstr(decl, "32"))
        size = 4;
      else if (strstr(decl, "16"))
        size = 2;
      else
        size = 1;
      k->pointer[k->count] = strstr(decl, ".ptr") != NULL;
      k->sizes[k->count++] = size;
      p = end + 1;
    }
  }
  return m;
}

/* A module from a cubin (64-bit ELF): kernels are the global functions,
 * their parameters' sizes from .nv.info.NAME's EIATTR_KPARAM_INFO (format
 * EIFMT_SVAL 0x04, attribute 0x17, 12 bytes: u32 index, u16 ordinal, u16
 * offset, u32 whose top 14 bits are the size); globals are the defined
 * object symbols. NULL when it does not read as one. */
static Module *module_of_cubin(const unsigned char *image) {
  const Elf64_Ehdr *header = (const Elf64_Ehdr *)image;
  if (header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_shentsize != sizeof(Elf64_Shdr))
    return NULL;
  const Elf64_Shdr *sections = (const Elf64_Shdr *)(image + header->e_shoff);
  const char *section_names = (const char *)image + sections[header->e_shstrndx].sh_offset;
  Module *m = calloc(1, sizeof *m);
  for (int i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB)
      continue;
    const Elf64_Sym *symbols = (const Elf64_Sym *)(image + sections[i].sh_offset);
    const char *names = (const char *)image + sections[sections[i].sh_link].sh_offset;
    size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
    for (size_t j = 0; j < count; ++j) {
      const char *name = names + symbols[j].st_name;
      if (symbols[j].st_shndx == SHN_UNDEF)
        continue;
      if (ELF64_ST_TYPE(symbols[j].st_info) == STT_OBJECT) {
        add_global(m, name, strlen(name));
      } else if (ELF64_ST_TYPE(symbols[j].st_info) == STT_FUNC && ELF64_ST_BIND(symbols[j].st_info) != STB_LOCAL &&
                 m->kernel_count < MAX_KERNELS) {
        Kernel *k = &m->kernels[m->kernel_count++];
        snprintf(k->name, sizeof k->name, "%s", name);
      }
    }
  }
  for (int i = 0; i < header->e_shnum; ++i) {
    const char *name = section_names + sections[i].sh_name;
    if (strncmp(name, ".nv.info.", 9))
      continue;
    Kernel *k = NULL;
    for (int j = 0; j < m->kernel_count; ++j)
      if (!strcmp(m->kernels[j].name, name + 9))
        k = &m->kernels[j];
    if (!k)
      continue;
    const unsigned char *at = image + sections[i].sh_offset, *end = at + sections[i].sh_size;
    while (at + 4 <= end) {
      unsigned format = at[0], attribute = at[1];
      uint16_t length;
      memcpy(&length, at + 2, 2);
      if (format == 0x04 && attribute == 0x17 && length >= 12) {
        uint16_t ordinal;
        uint32_t word;
        memcpy(&ordinal, at + 8, 2);
        memcpy(&word, at + 12, 4);
        if (ordinal < MAX_PARAMS) {
          k->sizes[ordinal] = word >> 18;
          k->pointer[ordinal] = -1;
          if (ordinal + 1 > k->count)
            k->count = ordinal + 1;
        }
      }
      at += format == 0x04 ? 4 + length : 4;
    }
  }
  return m;
}

CUresult cuModuleLoadData(void **module, const void *image) {
  if (failed)
    return ILLEGAL_ADDRESS;
  if (!memcmp(image, ELFMAG, SELFMAG)) {
    Module *m = module_of_cubin(image);
    if (!m)
      return INVALID_IMAGE;
    *module = m;
  } else {
    if (strstr(image, "// fake-module: loadfail"))
      return INVALID_PTX;
    *module = module_of_text(image);
  }
  ++fake_cubin_loads;
  return SUCCESS;
}

/* JIT options: 3 info log, 4 its size, 5 error log, 6 its size. */
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
  if (failed)
    return ILLEGAL_ADDRESS;
  const char *text = image;
  if (strstr(text, "// fake-module: loadfail")) {
    char *log = NULL;
    size_t size = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (options[i] == 5)
        log = values[i];
      if (options[i] == 6)
        size = (size_t)(uintptr_t)values[i];
    }
    if (!log || size < 64)
      return INVALID_VALUE; /* the runner must pass the error log */
    snprintf(log, size, "ptxas fatal   : fake JIT log: this module was told to fail");
    return INVALID_PTX;
  }
  *module = module_of_text(text);
  return SUCCESS;
}

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  Module *m = module;
  for (int i = 0; i < m->kernel_count; ++i)
    if (!strcmp(m->kernels[i].name, name)) {
      Function *f = calloc(1, sizeof *f);
      f->module = m;
      f->kernel = &m->kernels[i];
      *function = f;
      return SUCCESS;
    }
  return NOT_FOUND;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *size, void *module, const char *name) {
  Module *m = module;
  for (int i = 0; i < m->count; ++i)
    if (!strcmp(m->names[i], name)) {
      *p = (CUdeviceptr)(uintptr_t)m->globals[i];
      *size = m->sizes[i];
      return SUCCESS;
    }
  return NOT_FOUND;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) {
  (void)gy, (void)gz, (void)by, (void)bz, (void)shared, (void)stream;
  if (failed)
    return ILLEGAL_ADDRESS;
  if (gx == 0 || bx == 0 || extra)
    return INVALID_VALUE;
  Function *f = function;
  Kernel *k = f->kernel;
  if (k->fault) {
    pending = 1;
    return SUCCESS;
  }
  unsigned char blob[4096];
  size_t used = 0;
  unsigned char *target = NULL;
  for (int i = 0; i < k->count; ++i) {
    size_t size = k->sizes[i];
    if (used + size <= sizeof blob)
      memcpy(blob + used, params[i], size);
    used += size;
    CUdeviceptr value = 0;
    if (size == 8)
      memcpy(&value, params[i], 8);
    if (!target && (k->pointer[i] == 1 || (k->pointer[i] == -1 && size == 8 && is_allocation(value))))
      target = (unsigned char *)(uintptr_t)value;
  }
  if (target)
    memcpy(target, blob, used < sizeof blob ? used : sizeof blob);
  for (int i = 0; i < f->module->count; ++i)
    if (!strcmp(f->module->names[i], "counter"))
      ++*(unsigned *)f->module->globals[i];
  return SUCCESS;
}

CUresult cuCtxSynchronize(void) {
  if (pending)
    failed = 1;
  return failed ? ILLEGAL_ADDRESS : SUCCESS;
}
