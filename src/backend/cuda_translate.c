/* OpenCL C -> CUDA C++ source translation for NVRTC: the translation header
 * (src/kernels/cl_to_cuda.h) in front, and a light rewrite of the few
 * OpenCL idioms that macros cannot express in C++:
 *   (float4)(a, b, c, d)  ->  gk_vec<float4>(a, b, c, d)   (vector literals)
 *   __local float* p      ->  float* p                     (pointer to local)
 *   kernel, global, local ->  __kernel, __global, __local   (and constant, private)
 * Comments and string literals are left alone; newlines are kept, so the
 * compiler's line numbers match the .cl file. */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "registry.h"

#define MAX_VECTOR_NAMES 64
#define MAX_NAME 64

/* The vector types the header defines, and the aliases the source adds. */
typedef struct vector_names {
    char names[MAX_VECTOR_NAMES][MAX_NAME];
    int count;
} vector_names;

static const char *const builtin_vectors[] = {"float2", "float3", "float4", "float8", "float16",
                                              "int2",   "int4",   "uint2",  "uint4"};

typedef struct out_buf {
    char *text;
    size_t len, cap;
    int failed;
} out_buf;

static void put(out_buf *out, const char *s, size_t n)
{
    if (out->failed) return;
    if (out->len + n + 1 > out->cap) {
        size_t cap = (out->len + n + 1) * 2;
        char *grown = realloc(out->text, cap);
        if (!grown) {
            out->failed = 1;
            return;
        }
        out->text = grown;
        out->cap = cap;
    }
    memcpy(out->text + out->len, s, n);
    out->len += n;
    out->text[out->len] = '\0';
}

static void put_str(out_buf *out, const char *s) { put(out, s, strlen(s)); }

static int ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* Length of the comment or string/char literal starting at s, or 0. */
static size_t skip_opaque(const char *s)
{
    if (s[0] == '/' && s[1] == '/') {
        const char *end = strchr(s, '\n');
        return end ? (size_t)(end - s) : strlen(s);
    }
    if (s[0] == '/' && s[1] == '*') {
        const char *end = strstr(s + 2, "*/");
        return end ? (size_t)(end + 2 - s) : strlen(s);
    }
    if (s[0] == '"' || s[0] == '\'') {
        size_t i = 1;
        while (s[i] && s[i] != s[0] && s[i] != '\n') i += (s[i] == '\\' && s[i + 1]) ? 2 : 1;
        return s[i] == s[0] ? i + 1 : i;
    }
    return 0;
}

/* Skips spaces, tabs, newlines and comments. */
static const char *skip_space(const char *s)
{
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (s[0] == '/' && (s[1] == '/' || s[1] == '*')) s += skip_opaque(s);
        else return s;
    }
}

/* Reads an identifier at s into name (truncated to MAX_NAME); returns its end. */
static const char *read_ident(const char *s, char name[MAX_NAME])
{
    size_t n = 0;
    while (ident_char(s[n])) {
        if (n + 1 < MAX_NAME) name[n] = s[n];
        n++;
    }
    name[n < MAX_NAME ? n : MAX_NAME - 1] = '\0';
    return s + n;
}

static int is_vector(const vector_names *v, const char *name)
{
    for (int i = 0; i < v->count; i++)
        if (strcmp(v->names[i], name) == 0) return 1;
    return 0;
}

static void add_vector(vector_names *v, const char *name)
{
    if (v->count < MAX_VECTOR_NAMES && !is_vector(v, name)) strcpy(v->names[v->count++], name);
}

/* Aliases of vector types: `typedef float4 floatX;` and `#define floatX float4`
 * (in any #if branch, which is what the tutorial's WIDTH selection does). */
static void collect_aliases(const char *src, vector_names *v)
{
    for (int pass = 0; pass < 3; pass++) { /* aliases of aliases */
        for (const char *s = src; *s;) {
            size_t opaque = skip_opaque(s);
            if (opaque) {
                s += opaque;
                continue;
            }
            if (!ident_start(*s) || (s > src && ident_char(s[-1]))) {
                s++;
                continue;
            }
            char word[MAX_NAME], type[MAX_NAME], alias[MAX_NAME];
            const char *after = read_ident(s, word);
            int is_define = strcmp(word, "define") == 0;
            if (strcmp(word, "typedef") == 0 || is_define) {
                const char *t = skip_space(after);
                const char *a = read_ident(t, is_define ? alias : type);
                a = skip_space(a);
                const char *end = read_ident(a, is_define ? type : alias);
                if (end != a && is_vector(v, type) && (is_define || *skip_space(end) == ';'))
                    add_vector(v, alias);
            }
            s = after;
        }
    }
}

/* The last character written that is not white space. */
static char last_significant(const out_buf *out)
{
    for (size_t i = out->len; i > 0; i--) {
        char c = out->text[i - 1];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c;
    }
    return '\0';
}

/* Whether the __local at s (just after the keyword) qualifies a pointee or a
 * parameter rather than declaring __shared__ storage: in a parameter list or
 * a cast, or when a '*' follows the type words. */
static int local_is_pointer(const out_buf *out, const char *s)
{
    char before = last_significant(out);
    if (before == '(' || before == ',') return 1;
    for (;;) {
        s = skip_space(s);
        if (!ident_start(*s)) return *s == '*';
        while (ident_char(*s)) s++;
    }
}

/* Whether the output so far ends with the word `word` (and blanks). */
static int ends_with_word(const out_buf *out, const char *word)
{
    size_t end = out->len;
    while (end > 0 && strchr(" \t\n\r", out->text[end - 1])) end--;
    const size_t n = strlen(word);
    return end >= n && !memcmp(out->text + end - n, word, n) && (end == n || !ident_char(out->text[end - n - 1]));
}

/* At '(' : matches "( NAME ) (" with NAME a vector type, used as a value
 * (not a call or an `if (x)(...)`; after `return` it is a value). Sets *name
 * and returns the position of the second '(' or NULL. */
static const char *vector_literal(const vector_names *v, const out_buf *out, const char *s,
                                  char name[MAX_NAME])
{
    char before = last_significant(out);
    if ((ident_char(before) && !ends_with_word(out, "return")) || before == ')' || before == ']') return NULL;
    const char *p = skip_space(s + 1);
    if (!ident_start(*p)) return NULL;
    p = read_ident(p, name);
    if (!is_vector(v, name)) return NULL;
    p = skip_space(p);
    if (*p != ')') return NULL;
    p = skip_space(p + 1);
    return *p == '(' ? p : NULL;
}

static void put_newlines(out_buf *out, const char *from, const char *to)
{
    for (const char *c = from; c < to; c++)
        if (*c == '\n') put(out, "\n", 1);
}

/* OpenCL's qualifiers without underscores; the header defines only the
 * __-prefixed ones, since CUDA's __global__ and friends expand to these words. */
static int is_unprefixed_qualifier(const char *word)
{
    static const char *const words[] = {"kernel", "global", "local", "constant", "private"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(word, words[i]) == 0) return 1;
    return 0;
}

static void rewrite(const char *src, const vector_names *v, out_buf *out)
{
    const char *s = src;
    while (*s && !out->failed) {
        size_t opaque = skip_opaque(s);
        if (opaque) {
            put(out, s, opaque);
            s += opaque;
        } else if (ident_start(*s)) {
            char word[MAX_NAME];
            const char *end = read_ident(s, word);
            int local = strcmp(word, "__local") == 0 || strcmp(word, "local") == 0;
            if (local && local_is_pointer(out, end)) {
                /* dropped: CUDA pointers are generic */
            } else if (is_unprefixed_qualifier(word)) {
                put_str(out, "__");
                put_str(out, word);
            } else {
                put(out, s, (size_t)(end - s));
            }
            s = end;
        } else if (*s >= '0' && *s <= '9') {
            /* A number such as 1e4f: copied whole so its letters are not words. */
            const char *end = s;
            while (ident_char(*end) || *end == '.') end++;
            put(out, s, (size_t)(end - s));
            s = end;
        } else if (*s == '(') {
            char name[MAX_NAME];
            const char *paren = vector_literal(v, out, s, name);
            if (paren) {
                put_str(out, "gk_vec<");
                put_str(out, name);
                put_str(out, ">");
                put_newlines(out, s, paren);
                s = paren; /* the argument list's '(' is copied next */
            }
            put(out, s, 1);
            s++;
        } else {
            put(out, s, 1);
            s++;
        }
    }
}

char *gk_cuda_translate(const char *source)
{
    const char *header = gk_kernel_source("cl_to_cuda.h");
    if (!header || !source) return NULL;
    vector_names v = {.count = 0};
    for (size_t i = 0; i < sizeof builtin_vectors / sizeof builtin_vectors[0]; i++)
        add_vector(&v, builtin_vectors[i]);
    collect_aliases(source, &v);

    out_buf out = {NULL, 0, 0, 0};
    put_str(&out, header);
    put_str(&out, "\n#line 1 \"kernel.cl\"\n");
    rewrite(source, &v, &out);
    if (out.failed) {
        free(out.text);
        return NULL;
    }
    return out.text;
}
