/*===- runtime.c - runs hostified NVPTX kernels on the host ---------------===*
 *
 * Part of ptxcc's differential-execution harness (see README.md beside it).
 * Linked with a module that hostify.cpp wrote:
 *
 *   EXE list                          the kernels and their parameters
 *   EXE run K SEED FILL GRID BLOCK    runs kernel K on GRID blocks of BLOCK
 *                                     threads and prints every buffer and
 *                                     global variable afterwards, in hex
 *
 * Everything the kernel sees comes from SEED: buffers of 32-bit words 0-15
 * (small numbers, safe as indices) behind each pointer parameter, each
 * ending at a guard page; small integers and floats for scalar parameters
 * and for the fields of byval structs, whose pointer fields point at
 * buffers of their own. An address outside every region the harness knows
 * (a pointer read from a buffer of small numbers) is mapped into a pool of
 * its own, the same way in every run. Functions the module declares but
 * does not define log their arguments (hostify.cpp), and the log is
 * compared like a buffer. FILL is the byte every thread's stack, every
 * shared variable and every alloca (when it is made) holds before the
 * kernel writes it: what a kernel reads without writing first changes with
 * it.
 *
 * What plain host memory would hide is checked: a nvvm.grid_constant
 * parameter is one read-only copy (a write faults), other byval parameters
 * are a copy per thread; every cast from generic into a specific space
 * checks that the address lies in that space (global: the buffers and
 * global variables; shared; const; local: the running thread's stack; param:
 * the parameter copies). The threads of a block run one after the other as
 * coroutines, in order, switching at barriers.
 *
 * Exit status: 0 ran; 3 memory fault; 4 space check failed; 5 barrier not
 * reached by every thread; 6 usage or set-up problem.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* Written by hostify.cpp. */
typedef struct {
  void *address;
  int64_t size;
  int32_t space;
  int32_t flags; /* 1: constant; 2: no initial value */
  const char *name;
} GlobalEntry;
extern const int32_t __harness_kernel_count;
extern void (*const __harness_kernel_launch[])(void **);
extern const char *const __harness_kernel_desc[];
extern const int32_t __harness_global_count;
extern const GlobalEntry __harness_globals[];

/* Fixed addresses: pointer values are the same in every run. */
#define BUFFER_BASE ((char *)0x200000000000UL)
#define BUFFER_SIZE (16 * 1024)
#define BUFFER_STRIDE (BUFFER_SIZE + 4096)
#define MAX_BUFFERS 64
#define PARAM_BASE ((char *)0x300000000000UL)
#define PARAM_SIZE (4 * 1024 * 1024)
#define GRID_CONSTANT_BASE ((char *)0x310000000000UL)
#define GRID_CONSTANT_SIZE (1024 * 1024)
#define STACK_BASE ((char *)0x400000000000UL)
#define STACK_SIZE (1024 * 1024)
#define STACK_STRIDE (STACK_SIZE + 4096)
#define POOL_BASE ((char *)0x500000000000UL)
#define POOL_SIZE (64 * 1024)
#define CALL_LOG_SIZE 4096
#define MAX_THREADS 64
#define MAX_PARAMS 256

enum { SPACE_GLOBAL = 1, SPACE_SHARED = 3, SPACE_CONST = 4, SPACE_LOCAL = 5, SPACE_PARAM = 101 };

static void die(int status, const char *format, const char *detail) {
  fprintf(stderr, format, detail);
  fputc('\n', stderr);
  fflush(stdout);
  _exit(status);
}

/* xorshift64*: the one source of every input. */
static uint64_t random_state;
static uint64_t next_random(void) {
  random_state ^= random_state >> 12;
  random_state ^= random_state << 25;
  random_state ^= random_state >> 27;
  return random_state * 2685821657736338717ULL;
}

static void *map_at(char *address, size_t size, int protection) {
  void *mapped = mmap(address, size, protection, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (mapped != address)
    die(6, "harness: cannot map memory at a fixed address%s", "");
  return mapped;
}

/* Buffers behind pointers: 32-bit words 0-15, a guard page after each. */
static int buffer_count;
static void fill_words(char *bytes, long size) {
  memset(bytes, 0, (size_t)size);
  for (long i = 0; i < size; i += 4)
    bytes[i] = (char)(next_random() % 16);
}

static char *new_buffer(void) {
  if (buffer_count == MAX_BUFFERS)
    die(6, "harness: more than 64 pointers to fill%s", "");
  char *buffer = BUFFER_BASE + (size_t)buffer_count++ * BUFFER_STRIDE;
  map_at(buffer, BUFFER_SIZE, PROT_READ | PROT_WRITE);
  fill_words(buffer, BUFFER_SIZE);
  return buffer;
}

static const double small_floats[] = {0.5, 1.0, 2.0, 3.25, -1.5, 0.0, 7.0, -0.25};
static const uint16_t small_halves[] = {0x3800, 0x3C00, 0x4000, 0x4280, 0xBE00, 0x0000, 0x4700, 0xB400};

/* A small value of a scalar of `size` bytes: an integer 0-7 (`b`: 0 or 1),
 * a float from small_floats (halves as IEEE half), a new buffer. */
static void small_value(char kind, long size, unsigned char *out) {
  memset(out, 0, (size_t)size);
  unsigned pick = (unsigned)(next_random() % 8);
  if (kind == 'p') {
    char *buffer = new_buffer();
    memcpy(out, &buffer, size < 8 ? (size_t)size : 8);
  } else if (kind == 'b') {
    out[0] = (unsigned char)(pick & 1);
  } else if (kind == 'i') {
    out[0] = (unsigned char)pick;
  } else if (size == 2) {
    memcpy(out, &small_halves[pick], 2);
  } else if (size == 4) {
    float f = (float)small_floats[pick];
    memcpy(out, &f, 4);
  } else if (size == 8) {
    memcpy(out, &small_floats[pick], 8);
  }
}

/* Bytes for a struct or aggregate: random padding, then each field of
 * hostify's list (`KIND SIZE@OFFSET`, comma separated) a small value. */
static void fill_fields(char *bytes, long size, const char *fields) {
  for (long i = 0; i < size; ++i)
    bytes[i] = (char)(next_random() % 16);
  if (strcmp(fields, "-") == 0)
    return;
  for (const char *p = fields; *p;) {
    char kind = *p++;
    long field_size = strtol(p, (char **)&p, 10);
    long offset = *p == '@' ? strtol(p + 1, (char **)&p, 10) : -1;
    if (*p == ',')
      ++p;
    if (offset >= 0 && offset + field_size <= size && field_size <= 16)
      small_value(kind, field_size, (unsigned char *)bytes + offset);
  }
}

/* One kernel parameter, parsed from hostify's description. */
typedef struct {
  enum { PARAM_BYVAL, PARAM_POINTER, PARAM_INT, PARAM_FLOAT, PARAM_BYTES } kind;
  long size, align;
  int grid_constant;
  char fields[8192];
  _Alignas(16) unsigned char value[64]; /* scalars */
  char *base;                           /* byval: the bytes every copy starts from */
} Param;

static Param params[MAX_PARAMS];
static int param_count;
static char *param_next = PARAM_BASE;
static char *grid_constant_next = GRID_CONSTANT_BASE;

static char *param_space(char **next, char *end, long size, long align) {
  if (align < 16)
    align = 16;
  uintptr_t at = ((uintptr_t)*next + (uintptr_t)align - 1) & ~((uintptr_t)align - 1);
  if ((char *)at + size > end)
    die(6, "harness: parameters too large%s", "");
  *next = (char *)at + size;
  return (char *)at;
}

static void parse_params(const char *description) {
  const char *field = strchr(description, '\t');
  param_count = 0;
  while (field) {
    ++field;
    Param *p = &params[param_count++];
    memset(p, 0, sizeof *p);
    char kind[16] = {0};
    sscanf(field, "%15s", kind);
    if (strcmp(kind, "byval") == 0) {
      p->kind = PARAM_BYVAL;
      sscanf(field, "byval %ld %ld %d %8191[^\t]", &p->size, &p->align, &p->grid_constant, p->fields);
    } else if (strcmp(kind, "ptr") == 0) {
      p->kind = PARAM_POINTER;
    } else if (strcmp(kind, "int") == 0) {
      p->kind = PARAM_INT;
      sscanf(field, "int %ld", &p->size);
    } else if (strcmp(kind, "float") == 0) {
      p->kind = PARAM_FLOAT;
      sscanf(field, "float %ld", &p->size);
    } else {
      p->kind = PARAM_BYTES;
      sscanf(field, "bytes %ld %ld %8191[^\t]", &p->size, &p->align, p->fields);
      if (p->size > (long)sizeof p->value)
        die(6, "harness: an aggregate parameter is too large%s", "");
    }
    field = strchr(field, '\t');
  }
}

/* Values for every parameter, from the seed. */
static void make_arguments(void) {
  for (int i = 0; i < param_count; ++i) {
    Param *p = &params[i];
    switch (p->kind) {
    case PARAM_BYVAL:
      p->base = malloc(p->size ? p->size : 1);
      fill_fields(p->base, p->size, p->fields);
      break;
    case PARAM_POINTER:
      small_value('p', 8, p->value);
      break;
    case PARAM_INT:
      small_value(p->size == 1 ? 'b' : 'i', (p->size + 7) / 8, p->value);
      break;
    case PARAM_FLOAT:
      small_value('f', p->size / 8, p->value);
      break;
    case PARAM_BYTES:
      fill_fields((char *)p->value, p->size, p->fields);
      break;
    }
  }
}

/* The threads of one block, as coroutines. */
typedef struct {
  ucontext_t context;
  enum { READY, AT_BARRIER, DONE } state;
  void *args[MAX_PARAMS];
  char *stack;
  int reduce_in, reduce_out;
} Thread;

static Thread threads[MAX_THREADS];
static ucontext_t scheduler;
static int current, block_threads, grid_blocks, block_index, fill_byte;
static void (*launch)(void **);

static void thread_main(void) {
  launch(threads[current].args);
  threads[current].state = DONE;
  swapcontext(&threads[current].context, &scheduler);
}

static int barrier(int value) {
  Thread *t = &threads[current];
  t->reduce_in = value;
  t->state = AT_BARRIER;
  swapcontext(&t->context, &scheduler);
  return t->reduce_out;
}

static void run_block(int fill) {
  for (int g = 0; g < __harness_global_count; ++g) {
    const GlobalEntry *entry = &__harness_globals[g];
    if (entry->space == SPACE_SHARED && (entry->flags & 2))
      memset(entry->address, fill, (size_t)entry->size);
  }
  for (int t = 0; t < block_threads; ++t) {
    Thread *thread = &threads[t];
    memset(thread->stack, fill, STACK_SIZE);
    for (int i = 0; i < param_count; ++i) {
      Param *p = &params[i];
      if (p->kind == PARAM_BYVAL && p->grid_constant) {
        thread->args[i] = p->base; /* replaced by the shared read-only copy */
      } else if (p->kind == PARAM_BYVAL) {
        char *copy = param_space(&param_next, PARAM_BASE + PARAM_SIZE, p->size, p->align);
        memcpy(copy, p->base, p->size);
        thread->args[i] = copy;
      } else {
        thread->args[i] = p->value;
      }
    }
    getcontext(&thread->context);
    thread->context.uc_stack.ss_sp = thread->stack;
    thread->context.uc_stack.ss_size = STACK_SIZE;
    thread->context.uc_link = NULL;
    makecontext(&thread->context, thread_main, 0);
    thread->state = READY;
  }
  for (;;) {
    for (current = 0; current < block_threads; ++current)
      if (threads[current].state == READY)
        swapcontext(&scheduler, &threads[current].context);
    int waiting = 0, done = 0, popc = 0, all = 1, any = 0;
    for (int t = 0; t < block_threads; ++t) {
      if (threads[t].state == DONE) {
        ++done;
      } else {
        ++waiting;
        popc += threads[t].reduce_in != 0;
        all &= threads[t].reduce_in != 0;
        any |= threads[t].reduce_in != 0;
      }
    }
    if (waiting == 0)
      return;
    if (done > 0)
      die(5, "harness: a barrier that not every thread of the block reaches%s", "");
    for (int t = 0; t < block_threads; ++t) {
      threads[t].reduce_out = popc | (all << 16) | (any << 17);
      threads[t].state = READY;
    }
  }
}

/* Which space an address lies in (for the casts' checks). */
static int in_global_entry(const char *address, int space) {
  for (int g = 0; g < __harness_global_count; ++g) {
    const GlobalEntry *entry = &__harness_globals[g];
    const char *start = entry->address;
    if (entry->space == space && address >= start && address < start + (entry->size ? entry->size : 1))
      return 1;
  }
  return 0;
}

static const char *describe_address(const char *address) {
  if (address >= BUFFER_BASE && address < BUFFER_BASE + MAX_BUFFERS * (size_t)BUFFER_STRIDE)
    return "a global buffer";
  if (address >= PARAM_BASE && address < PARAM_BASE + PARAM_SIZE)
    return "a parameter copy (param space)";
  if (address >= GRID_CONSTANT_BASE && address < GRID_CONSTANT_BASE + GRID_CONSTANT_SIZE)
    return "a grid-constant parameter (param space, read-only)";
  if (address >= STACK_BASE && address < STACK_BASE + MAX_THREADS * (size_t)STACK_STRIDE)
    return "a thread's stack (local space)";
  if (in_global_entry(address, SPACE_SHARED))
    return "a shared variable";
  if (in_global_entry(address, SPACE_CONST))
    return "a const variable";
  if (in_global_entry(address, 0) || in_global_entry(address, SPACE_GLOBAL))
    return "a global variable";
  if (address >= POOL_BASE && address < POOL_BASE + 2 * POOL_SIZE)
    return "the pool of addresses nothing made";
  return "memory the harness does not know";
}

static int known_address(const char *address);

void *__harness_check_space(void *pointer, int space) {
  const char *address = pointer;
  int ok = 1;
  if (!address)
    return pointer;
  switch (space) {
  case SPACE_GLOBAL:
    /* An address nothing made stands for global memory (the pool). */
    ok = (address >= BUFFER_BASE && address < BUFFER_BASE + MAX_BUFFERS * (size_t)BUFFER_STRIDE) ||
         in_global_entry(address, SPACE_GLOBAL) || in_global_entry(address, 0) || !known_address(address);
    break;
  case SPACE_SHARED:
    ok = in_global_entry(address, SPACE_SHARED);
    break;
  case SPACE_CONST:
    ok = in_global_entry(address, SPACE_CONST);
    break;
  case SPACE_LOCAL:
    ok = address >= threads[current].stack && address < threads[current].stack + STACK_SIZE;
    break;
  case SPACE_PARAM:
    ok = (address >= PARAM_BASE && address < PARAM_BASE + PARAM_SIZE) ||
         (address >= GRID_CONSTANT_BASE && address < GRID_CONSTANT_BASE + GRID_CONSTANT_SIZE);
    break;
  default:
    break;
  }
  if (!ok) {
    fprintf(stderr, "space: a generic pointer cast to address space %d points into ", space);
    die(4, "%s", describe_address(address));
  }
  return pointer;
}

/* Whether an address lies in a region the harness made or knows. */
static int known_address(const char *address) {
  return (address >= BUFFER_BASE && address < BUFFER_BASE + MAX_BUFFERS * (size_t)BUFFER_STRIDE) ||
         (address >= PARAM_BASE && address < PARAM_BASE + PARAM_SIZE) ||
         (address >= GRID_CONSTANT_BASE && address < GRID_CONSTANT_BASE + GRID_CONSTANT_SIZE) ||
         (address >= STACK_BASE && address < STACK_BASE + MAX_THREADS * (size_t)STACK_STRIDE) ||
         (address >= POOL_BASE && address < POOL_BASE + 2 * POOL_SIZE) || in_global_entry(address, 0) ||
         in_global_entry(address, SPACE_GLOBAL) || in_global_entry(address, SPACE_SHARED) ||
         in_global_entry(address, SPACE_CONST) || in_global_entry(address, SPACE_PARAM);
}

/* Every access goes through here: an address nothing made (a pointer read
 * from a buffer of small numbers) lands in the pool, by its low bits. */
void *__harness_address(void *pointer) {
  const char *address = pointer;
  if (known_address(address))
    return pointer;
  return POOL_BASE + ((uintptr_t)address & (POOL_SIZE - 1));
}

/* The log of calls of functions the module only declares. */
static uint64_t call_log[CALL_LOG_SIZE];
static int call_log_length;

void __harness_log_value(uint64_t value) {
  if (call_log_length < CALL_LOG_SIZE)
    call_log[call_log_length++] = value;
}

void __harness_log_pointee(void *pointer, int64_t bytes) {
  uint64_t hash = 0xCBF29CE484222325ULL;
  const unsigned char *p = __harness_address(pointer);
  for (int64_t i = 0; i < bytes && i < 64; ++i)
    hash = (hash ^ p[i]) * 0x100000001B3ULL;
  __harness_log_value(hash);
}

uint64_t __harness_call_result(int id) {
  uint64_t hash = (uint64_t)id;
  for (int i = 0; i < call_log_length; ++i)
    hash = hash * 31 + call_log[i];
  return hash % 8;
}

static void on_fault(int signal, siginfo_t *info, void *unused) {
  (void)signal;
  (void)unused;
  fprintf(stderr, "fault: memory access at %p, in ", info->si_addr);
  die(3, "%s", describe_address(info->si_addr));
}

/* Special registers: x only (y and z are 0, of size 1). */
int __nvvm_read_ptx_sreg_tid_x(void) { return current; }
int __nvvm_read_ptx_sreg_tid_y(void) { return 0; }
int __nvvm_read_ptx_sreg_tid_z(void) { return 0; }
int __nvvm_read_ptx_sreg_ntid_x(void) { return block_threads; }
int __nvvm_read_ptx_sreg_ntid_y(void) { return 1; }
int __nvvm_read_ptx_sreg_ntid_z(void) { return 1; }
int __nvvm_read_ptx_sreg_ctaid_x(void) { return block_index; }
int __nvvm_read_ptx_sreg_ctaid_y(void) { return 0; }
int __nvvm_read_ptx_sreg_ctaid_z(void) { return 0; }
int __nvvm_read_ptx_sreg_nctaid_x(void) { return grid_blocks; }
int __nvvm_read_ptx_sreg_nctaid_y(void) { return 1; }
int __nvvm_read_ptx_sreg_nctaid_z(void) { return 1; }
int __nvvm_read_ptx_sreg_laneid(void) { return current % 32; }
int __nvvm_read_ptx_sreg_warpsize(void) { return 32; }

/* Barriers (every barrier id is the whole block). */
void __nvvm_barrier0(void) { barrier(0); }
void __nvvm_bar_sync(int id) { (void)id; barrier(0); }
void __nvvm_barrier_sync(int id) { (void)id; barrier(0); }
void __nvvm_barrier_cta_sync_aligned_all(int id) { (void)id; barrier(0); }
void __nvvm_barrier_cta_sync_all(int id) { (void)id; barrier(0); }
int __nvvm_barrier0_popc(int v) { return barrier(v) & 0xFFFF; }
int __nvvm_barrier0_and(int v) { return (barrier(v) >> 16) & 1; }
int __nvvm_barrier0_or(int v) { return (barrier(v) >> 17) & 1; }
int __nvvm_barrier_cta_red_popc_aligned_all(int id, int v) { (void)id; return barrier(v & 1) & 0xFFFF; }
_Bool __nvvm_barrier_cta_red_and_aligned_all(int id, int v) { (void)id; return (barrier(v & 1) >> 16) & 1; }
_Bool __nvvm_barrier_cta_red_or_aligned_all(int id, int v) { (void)id; return (barrier(v & 1) >> 17) & 1; }

/* What x86 code generation calls for bf16 and libgcc lacks: float to
 * bfloat16, rounding to nearest even. The result travels in the low 16 bits
 * of xmm0, so it is returned as a float with those bits (writing __bf16
 * here would make clang call this function from itself). */
float __truncsfbf2(float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  uint32_t out = (bits & 0x7FFFFFFF) > 0x7F800000 ? 0x7FC0 : (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16;
  float result;
  memcpy(&result, &out, 4);
  return result;
}

float __truncdfbf2(double value) { return __truncsfbf2((float)value); }

/* Every alloca starts as the fill byte (hostify.cpp). */
void __harness_fill(void *slot, int64_t bytes) { memset(slot, fill_byte, (size_t)bytes); }

/* Fences: one OS thread, nothing to order. */
void __nvvm_membar_cta(void) {}
void __nvvm_membar_gl(void) {}
void __nvvm_membar_sys(void) {}

static void print_hex(const char *label, const unsigned char *bytes, long size) {
  static const char digits[] = "0123456789abcdef";
  fputs(label, stdout);
  for (long i = 0; i < size; ++i) {
    putchar(digits[bytes[i] >> 4]);
    putchar(digits[bytes[i] & 15]);
  }
  putchar('\n');
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "list") == 0) {
    for (int k = 0; k < __harness_kernel_count; ++k)
      printf("%s\n", __harness_kernel_desc[k]);
    return 0;
  }
  if (argc != 7 || strcmp(argv[1], "run") != 0)
    die(6, "usage: %s list | run KERNEL SEED FILL GRID BLOCK", argv[0]);
  int kernel = atoi(argv[2]);
  random_state = strtoull(argv[3], NULL, 0) * 0x9E3779B97F4A7C15ULL + 1;
  int fill = (int)strtol(argv[4], NULL, 0);
  fill_byte = fill;
  grid_blocks = atoi(argv[5]);
  block_threads = atoi(argv[6]);
  if (kernel < 0 || kernel >= __harness_kernel_count || block_threads < 1 || block_threads > MAX_THREADS ||
      grid_blocks < 1)
    die(6, "harness: bad kernel index, grid or block%s", "");
  launch = __harness_kernel_launch[kernel];

  static char signal_stack[64 * 1024];
  stack_t alternate = {.ss_sp = signal_stack, .ss_size = sizeof signal_stack};
  sigaltstack(&alternate, NULL);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &action, NULL);
  sigaction(SIGBUS, &action, NULL);

  map_at(PARAM_BASE, PARAM_SIZE, PROT_READ | PROT_WRITE);
  map_at(POOL_BASE, 2 * POOL_SIZE, PROT_READ | PROT_WRITE);
  fill_words(POOL_BASE, 2 * POOL_SIZE);
  map_at(GRID_CONSTANT_BASE, GRID_CONSTANT_SIZE, PROT_READ | PROT_WRITE);
  for (int t = 0; t < block_threads; ++t)
    threads[t].stack = map_at(STACK_BASE + (size_t)t * STACK_STRIDE, STACK_SIZE, PROT_READ | PROT_WRITE);

  parse_params(__harness_kernel_desc[kernel]);
  make_arguments();
  /* One read-only copy of each grid constant, shared by every thread. */
  for (int i = 0; i < param_count; ++i) {
    Param *p = &params[i];
    if (p->kind == PARAM_BYVAL && p->grid_constant) {
      char *copy = param_space(&grid_constant_next, GRID_CONSTANT_BASE + GRID_CONSTANT_SIZE, p->size, p->align);
      memcpy(copy, p->base, p->size);
      p->base = copy;
    }
  }
  mprotect(GRID_CONSTANT_BASE, GRID_CONSTANT_SIZE, PROT_READ);
  /* Writable global variables without an initial value start as FILL. */
  for (int g = 0; g < __harness_global_count; ++g) {
    const GlobalEntry *entry = &__harness_globals[g];
    if ((entry->space == 0 || entry->space == SPACE_GLOBAL) && (entry->flags & 2) && !(entry->flags & 1))
      memset(entry->address, fill, (size_t)entry->size);
  }

  for (block_index = 0; block_index < grid_blocks; ++block_index)
    run_block(fill);

  char label[256];
  for (int b = 0; b < buffer_count; ++b) {
    snprintf(label, sizeof label, "buffer %d ", b);
    print_hex(label, (unsigned char *)(BUFFER_BASE + (size_t)b * BUFFER_STRIDE), BUFFER_SIZE);
  }
  print_hex("pool ", (unsigned char *)POOL_BASE, 2 * POOL_SIZE);
  print_hex("calls ", (unsigned char *)call_log, call_log_length * (long)sizeof call_log[0]);
  for (int g = 0; g < __harness_global_count; ++g) {
    const GlobalEntry *entry = &__harness_globals[g];
    if ((entry->space == 0 || entry->space == SPACE_GLOBAL) && !(entry->flags & 1)) {
      snprintf(label, sizeof label, "global %s ", entry->name);
      print_hex(label, entry->address, entry->size);
    }
  }
  fflush(stdout);
  return 0;
}
