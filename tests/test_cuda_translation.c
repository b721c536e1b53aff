/* The CUDA backend without a GPU: the OpenCL-to-CUDA source rewrite, every
 * registry kernel compiled through NVRTC with its default parameters (NVRTC
 * runs on the CPU), every CUDA line of the built-in tuning database with its
 * own parameters, the cp.async rings' inline PTX assembled, the translation
 * header's documented idioms, build errors with logs, and device discovery
 * failing gracefully without a driver. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuda_internal.h"
#include "gemmkit.h"
#include "kernel_config.h"
#include "registry.h"
#include "test_choices.h"
#include "test_fake_device.h"
#include "tuning.h"

/* Hopper (H100/H200) unless GEMMKIT_CUDA_TEST_ARCH names another, e.g. 80. */
static int test_arch(void)
{
    const char *env = getenv("GEMMKIT_CUDA_TEST_ARCH");
    return env && atoi(env) > 0 ? atoi(env) : 90;
}

/* Skips the calling test when NVRTC is not built in or not installed. */
static void require_nvrtc(void)
{
    if (gk_cuda_nvrtc_load() != GEMMKIT_SUCCESS) {
        print_message("skipping: %s\n", gemmkit_last_error_message());
        skip();
    }
}

/* The translated text after the header. */
static const char *body_of(const char *translated)
{
    const char *marker = strstr(translated, "#line 1 \"kernel.cl\"\n");
    assert_non_null(marker);
    return marker + strlen("#line 1 \"kernel.cl\"\n");
}

static size_t count_char(const char *s, char c)
{
    size_t n = 0;
    for (; *s; s++) n += *s == c;
    return n;
}

static void assert_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle)) fail_msg("expected \"%s\" in:\n%s", needle, text);
}

static void assert_lacks(const char *text, const char *needle)
{
    if (strstr(text, needle)) fail_msg("did not expect \"%s\" in:\n%s", needle, text);
}

static void test_rewrites_vector_literals_and_local_pointers(void **state)
{
    (void)state;
    const char *source =
        "#define floatY float2\n"
        "typedef float4 floatX;\n"
        "float helper(__local float* s, __local float4 *t) { return s[0] + t[0].x; }\n"
        "__kernel void k(__global float* A) {\n"
        "    __local float tile[16][17];\n"
        "    __local float* p = &tile[0][0];\n"
        "    floatX a = (floatX)(1.0f, 2.0f, 3.0f, 4.0f);\n"
        "    float4 z = (float4) ( 0.0f );\n"
        "    floatY y = (floatY)(1.0e-3f, 2);\n"
        "    float8 w = (float8)((float4)(1.0f), (float4)(2.0f));\n"
        "    __local float4* q = (__local float4*)p;\n"
        "    float c = (float)(A[0]);\n"
        "    // (float4)(1.0f) in a comment stays\n"
        "    const char* s = \"(float4)(2.0f) __local float* x\";\n"
        "}\n"
        "kernel void k2(global float* A, constant float* c) { local float t[4]; local float* p = t; }\n"
        "float4 k3(float x) { if (x)(void)0; return (float4)(x, 0.0f, 0.0f, 1.0f); }\n";
    char *out = gk_cuda_translate(source);
    assert_non_null(out);
    const char *body = body_of(out);
    assert_int_equal(count_char(body, '\n'), count_char(source, '\n')); /* line numbers kept */
    assert_contains(body, "gk_vec<floatX>(1.0f, 2.0f, 3.0f, 4.0f)");
    assert_contains(body, "gk_vec<float4>( 0.0f )");
    assert_contains(body, "gk_vec<floatY>(1.0e-3f, 2)");
    assert_contains(body, "gk_vec<float8>(gk_vec<float4>(1.0f), gk_vec<float4>(2.0f))");
    assert_contains(body, "__local float tile[16][17];"); /* storage: __shared__ via the header */
    assert_contains(body, "  float* p = &tile[0][0];");
    assert_contains(body, "float helper( float* s,  float4 *t)");
    assert_contains(body, "  float4* q = ( float4*)p;");
    assert_contains(body, "(float)(A[0])"); /* scalar casts untouched */
    assert_contains(body, "// (float4)(1.0f) in a comment stays");
    assert_contains(body, "\"(float4)(2.0f) __local float* x\"");
    assert_contains(body, "__kernel void k2(__global float* A, __constant float* c) { __local float t[4];  float* p = t; }");
    assert_contains(body, "return gk_vec<float4>(x, 0.0f, 0.0f, 1.0f);"); /* a value after return */
    assert_contains(body, "if (x)(void)0;");                              /* a call-like form stays */
    assert_lacks(body, "__local float* p");
    assert_lacks(body, "__local float4*");
    free(out);
}

static void test_leaves_calls_and_conditions_alone(void **state)
{
    (void)state;
    const char *source = "void f(void) { if (float4)(x); g(float4)(y); a[float4](z); }\n";
    char *out = gk_cuda_translate(source);
    assert_non_null(out);
    assert_contains(body_of(out), source);
    free(out);
}

/* Compiles one source and fails the test with the NVRTC log on error. */
static void compile_ok(const char *what, const char *source, const gk_define *defines, unsigned count, int arch,
                       gk_cuda_image *image)
{
    char *log = NULL, options[512];
    gemmkit_status status = gk_cuda_compile_source(source, defines, count, arch, image, &log);
    if (status != GEMMKIT_SUCCESS)
        fail_msg("%s with \"%s\" for arch %d: %s: %s\n%s", what, gk_defines_text(defines, count, options, sizeof options),
                 arch, gemmkit_strerror(status),
                 gemmkit_last_error_message(), log ? log : "(no log)");
    free(log);
    assert_non_null(image->data);
    assert_true(image->size > 0);
}

static int image_has(const gk_cuda_image *image, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= image->size; i++)
        if (memcmp(image->data + i, needle, n) == 0) return 1;
    return 0;
}

/* def built with config for arch, op(A) and op(B) as trans_a, trans_b where def takes them, float4 access (and the
 * tiny batched kernels' float4 block copies) as vec where it has them; checked to hold def's function. */
static void compile_config(const char *what, const gk_kernel_def *def, const gk_config *config, int trans_a,
                           int trans_b, int vec, int arch)
{
    const char *source = gk_kernel_source(def->source);
    if (!source) fail_msg("%s: no embedded source %s", what, def->source);
    gk_define defines[GK_MAX_DEFINES];
    unsigned count = gk_config_defines(config, defines);
    if (def->defines & GK_DEFINE_TRANS_A) {
        defines[count++] = (gk_define){"TRANS_A", trans_a};
        defines[count++] = (gk_define){"TRANS_B", trans_b};
    }
    if (def->defines & GK_DEFINE_VEC_A) {
        defines[count++] = (gk_define){"VEC_A", vec};
        defines[count++] = (gk_define){"VEC_B", vec};
        defines[count++] = (gk_define){"VEC_C", vec};
    }
    if (def->defines & GK_DEFINE_DENSE_A) {
        defines[count++] = (gk_define){"DENSE_A", vec};
        defines[count++] = (gk_define){"DENSE_B", vec};
        defines[count++] = (gk_define){"DENSE_C", vec};
    }
    if (def->arch_specific) defines[count++] = (gk_define){"GK_ARCH_SPECIFIC", 1};
    gk_cuda_image image;
    compile_ok(what, source, defines, count, arch, &image);
    /* extern "C": the function keeps its OpenCL name. */
    if (!image_has(&image, def->function))
        fail_msg("%s: no function %s in the %s output", what, def->function, image.target);
    free(image.data);
}

/* Every registry kernel, whatever families are merged in, with its default
 * parameters (and every transpose combination for direct kernels, which may
 * pick their access pattern by TRANS_A/TRANS_B), for the test arch. */
static void test_every_registry_kernel_compiles(void **state)
{
    (void)state;
    require_nvrtc();
    int arch = test_arch(), compiled = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (def->math != GK_MATH_FP32 && arch < 80) continue; /* mma.sync with TF32: sm_80 on (test below) */
        if (def->arch_specific && def->arch_specific != arch) continue; /* sm_90a's wgmma: only there */
        if (def->min_capability > arch) continue;                     /* int8 mma.sync: sm_80 on */
        gk_config config;
        if (gk_config_resolve(def, NULL, &config) != GEMMKIT_SUCCESS)
            fail_msg("kernel %s: defaults rejected: %s", def->name, gemmkit_last_error_message());
        /* Every op(A), op(B) of a kernel that takes them; with float4 access for NT and TN and without for NN
         * and TT, so that each operand's two orders are compiled with and without it. */
        const int variants = def->defines & GK_DEFINE_TRANS_A ? 4 : 1;
        char what[160];
        snprintf(what, sizeof what, "kernel %s (%s)", def->name, def->source);
        for (int v = 0; v < variants; v++) { /* v's bits: op(A), op(B) */
            compile_config(what, def, &config, v & 1, (v >> 1) & 1, v == 1 || v == 2, arch);
            compiled++;
        }
    }
    print_message("%d kernel configurations compiled for sm_%d\n", compiled, arch);
    assert_true(compiled > 0);
}

/* Every kernel line the built-in database gives an sm_90 device through CUDA (the H100's and H200's: "xgemm-direct",
 * "xgemm-direct/mid-n", the skinny lines, ...), built with that line's parameters for sm_90: a tuned line the GPU would
 * run is compiled here first. Operands NN with float4 access and TT without, where the kernel takes them. */
static void test_builtin_cuda_lines_compile(void **state)
{
    (void)state;
    require_nvrtc();
    gemmkit_device_info info = device(1);
    snprintf(info.backend, sizeof info.backend, "cuda");
    static gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    int compiled = 0;
    for (int i = 0; i < tuned.count; i++) {
        const gk_config *config = &tuned.entries[i].config;
        const gk_kernel_def *def = config->def;
        if (!def || !tuned.entries[i].builtin) continue; /* a setting or cost line */
        char what[200];
        snprintf(what, sizeof what, "line %s (%s)", tuned.entries[i].line.kernel, tuned.entries[i].line.params);
        for (int v = 0; v < (def->defines & GK_DEFINE_TRANS_A ? 2 : 1); v++) {
            compile_config(what, def, config, v, v, !v, 90);
            compiled++;
        }
    }
    print_message("%d built-in line configurations compiled for sm_90\n", compiled);
    assert_true(compiled > 10);
}

/* batched-small beyond its defaults (8^3): its parameters at the registry's extremes, sizes whose dense blocks
 * float4 cross columns, mixed dense and general operands, one matrix larger than ELEMS, every transpose. */
static void test_batched_small_builds(void **state)
{
    (void)state;
    require_nvrtc();
    const gk_kernel_def *def = gk_kernel_find("batched-small");
    assert_non_null(def);
    static const struct {
        const char *params;
        int64_t m, n, k;
        int dense_a, dense_b, dense_c;
    } builds[] = {
        {"ELEMS=4096,RM=8,RN=8", 16, 16, 32, 1, 1, 1}, {"ELEMS=256,RM=1,RN=1", 7, 5, 6, 0, 0, 0},
        {"ELEMS=256,RM=1,RN=8", 6, 3, 2, 1, 0, 0},     {"ELEMS=4096,RM=4,RN=1", 3, 8, 4, 1, 1, 1},
        {"ELEMS=2048,RM=8,RN=8", 32, 32, 32, 0, 1, 1}, {"ELEMS=512,RM=8,RN=1", 8, 8, 8, 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
        gk_config config;
        assert_int_equal(gk_config_resolve(def, builds[i].params, &config), GEMMKIT_SUCCESS);
        gk_define defines[GK_MAX_DEFINES];
        unsigned count = gk_config_defines(&config, defines);
        defines[count++] = (gk_define){"TRANS_A", (int64_t)(i & 1)};
        defines[count++] = (gk_define){"TRANS_B", (int64_t)((i >> 1) & 1)};
        defines[count++] = (gk_define){"SIZE_M", builds[i].m};
        defines[count++] = (gk_define){"SIZE_N", builds[i].n};
        defines[count++] = (gk_define){"SIZE_K", builds[i].k};
        defines[count++] = (gk_define){"DENSE_A", builds[i].dense_a};
        defines[count++] = (gk_define){"DENSE_B", builds[i].dense_b};
        defines[count++] = (gk_define){"DENSE_C", builds[i].dense_c};
        gk_cuda_image image;
        compile_ok("kernel batched-small", gk_kernel_source(def->source), defines, count, test_arch(), &image);
        assert_true(image_has(&image, def->function));
        free(image.data);
    }
    /* Dense A, B and C at 8^3 (PTX, readable): 128-bit loads of A and B (and of C for beta), 128-bit stores of C;
     * the general build has none. */
    for (int dense = 0; dense < 2; dense++) {
        gk_config config;
        assert_int_equal(gk_config_resolve(def, NULL, &config), GEMMKIT_SUCCESS);
        gk_define defines[GK_MAX_DEFINES];
        unsigned count = gk_config_defines(&config, defines);
        defines[count++] = (gk_define){"DENSE_A", dense};
        defines[count++] = (gk_define){"DENSE_B", dense};
        defines[count++] = (gk_define){"DENSE_C", dense};
        gk_cuda_image image;
        compile_ok("kernel batched-small", gk_kernel_source(def->source), defines, count, 9990, &image);
        assert_false(image.is_cubin);
        const int v4_loads = strstr(image.data, "ld.global.nc.v4.") || strstr(image.data, "ld.global.v4.");
        assert_int_equal(v4_loads, dense);
        assert_int_equal(strstr(image.data, "st.global.v4.") != NULL, dense); /* .f32, or .u32 for a copy */
        free(image.data);
    }
}

/* One build of a tensor-core row's configuration for arch, op(A), op(B) and VEC_A/B from v's bits (v & 1:
 * TRANS_A, v & 2: TRANS_B, v & 4: VEC_A, v & 8: VEC_B); `what` names it in a failure. */
static void compile_tensor_variant(const gk_kernel_def *def, const gk_config *config, int v, int arch, const char *what)
{
    gk_define defines[GK_MAX_DEFINES];
    unsigned count = gk_config_defines(config, defines);
    defines[count++] = (gk_define){"TRANS_A", v & 1};
    defines[count++] = (gk_define){"TRANS_B", (v >> 1) & 1};
    defines[count++] = (gk_define){"VEC_A", (v >> 2) & 1};
    defines[count++] = (gk_define){"VEC_B", (v >> 3) & 1};
    if (def->arch_specific) defines[count++] = (gk_define){"GK_ARCH_SPECIFIC", 1};
    gk_cuda_image image;
    compile_ok(what, gk_kernel_source(def->source), defines, count, arch, &image);
    if (!image_has(&image, def->function))
        fail_msg("kernel %s: no function %s in the %s output", def->name, def->function, image.target);
    free(image.data);
}

/* The tensor-core kernels (math modes other than fp32) for sm_80 and sm_90, the
 * oldest and the newest architecture they serve, with every combination of the
 * problem defines they take (TRANS_A/B, VEC_A/B: 16 builds per row and arch):
 * inline PTX mma.sync m16n8k8 TF32 must assemble for each; and the mma.sync rows with their swizzled
 * local layout. */
static void test_tensor_core_kernels_compile_for_sm80_and_sm90(void **state)
{
    (void)state;
    require_nvrtc();
    static const int archs[] = {80, 90};
    int compiled = 0, rows = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (def->math == GK_MATH_FP32) continue;
        rows++;
        gk_config config;
        if (gk_config_resolve(def, NULL, &config) != GEMMKIT_SUCCESS)
            fail_msg("kernel %s: defaults rejected: %s", def->name, gemmkit_last_error_message());
        char what[160];
        snprintf(what, sizeof what, "kernel %s (%s)", def->name, def->source);
        for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
            for (int v = 0; v < 16; v++) {
                if (def->arch_specific && def->arch_specific != archs[a]) continue;
                compile_tensor_variant(def, &config, v, archs[a], what);
                compiled++;
            }
    }
    print_message("%d builds of %d tensor-core kernels for sm_80 and sm_90\n", compiled, rows);
    assert_true(rows >= 2);
    /* The mma.sync rows' swizzled local layout (LOCAL_SWIZZLE=1), every transpose (float4 access), for sm_90. */
    int swizzled = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        gk_config config;
        if (def->math == GK_MATH_FP32 || def->arch_specific ||
            gk_config_resolve(def, "LOCAL_SWIZZLE=1", &config) != GEMMKIT_SUCCESS)
            continue;
        char what[160];
        snprintf(what, sizeof what, "kernel %s (LOCAL_SWIZZLE=1)", def->name);
        for (int v = 0; v < 4; v++) {
            compile_tensor_variant(def, &config, v | 12, 90, what);
            swizzled++;
        }
    }
    assert_true(swizzled >= 8);
}

/* An arch-specific kernel (wgmma, sm_90a) at every parameter choice of its row (each instruction
 * shape the tuner may pick), both operand orders where the row takes them; and refused by NVRTC's plain
 * sm_90 target, so that the GK_ARCH_SPECIFIC define is what makes it build. */
typedef struct arch_build {
    const gk_kernel_def *def;
    int compiled;
} arch_build;

/* Whether a registry row has a parameter of that name. */
static int takes_param(const gk_kernel_def *def, const char *name)
{
    for (int i = 0; i < GK_MAX_PARAMS && def->params[i].name; i++)
        if (strcmp(def->params[i].name, name) == 0) return 1;
    return 0;
}

static void compile_choice(const char *params, const gk_config *config, void *data)
{
    arch_build *b = data;
    /* Rows on operands the contract fixes (split, TMA) take no orientation defines: one build. */
    const int orders = (b->def->defines & GK_DEFINE_TRANS_A) ? 2 : 1;
    for (int trans = 0; trans < orders; trans++) {
        gk_define defines[GK_MAX_DEFINES];
        unsigned count = gk_config_defines(config, defines);
        if (orders == 2) {
            defines[count++] = (gk_define){"TRANS_A", trans};
            defines[count++] = (gk_define){"TRANS_B", trans};
            defines[count++] = (gk_define){"VEC_A", 1};
            defines[count++] = (gk_define){"VEC_B", 1};
        }
        defines[count++] = (gk_define){"GK_ARCH_SPECIFIC", 1};
        gk_cuda_image image;
        char what[200];
        snprintf(what, sizeof what, "kernel %s (%s)", b->def->name, params);
        compile_ok(what, gk_kernel_source(b->def->source), defines, count, b->def->arch_specific, &image);
        assert_string_equal(image.target, "sm_90a");
        free(image.data);
        b->compiled++;
    }
}

static void test_arch_specific_kernels_compile_for_their_target(void **state)
{
    (void)state;
    require_nvrtc();
    int rows = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (!def->arch_specific) continue;
        rows++;
        arch_build b = {def, 0};
        /* Every instruction shape and ring without PIPE, then PIPE's choices at each N, then A through a
         * descriptor (A_DESC, taken in the TRANS_A build) at each N and partial sum, unrounded (TF32) at each N.
         * Rows without PIPE (on split operands, or copied by the tensor memory accelerator): every shape,
         * K tile, ring and partial sum of their own parameters. */
        const int choices =
            !takes_param(def, "PIPE")
                ? test_each_choice_of(def, NULL, "WARPS_M,NI,TSK,STAGES,SUM_TILES", compile_choice, &b)
                : test_each_choice_of(def, "PIPE=0", "WARPS_M,NI,TSK,STAGES", compile_choice, &b) +
                      test_each_choice_of(def, NULL, "NI,PIPE,SUM_TILES", compile_choice, &b) +
                      test_each_choice_of(def, "PIPE=0,A_DESC=1,STAGES=3", "NI,SUM_TILES", compile_choice, &b) +
                      test_each_choice_of(def, "PIPE=0,A_DESC=2,STAGES=3", "NI", compile_choice, &b);
        print_message("%s: %d builds of %d parameter choices for sm_%da\n", def->name, b.compiled, choices,
                      def->arch_specific);
        assert_true(choices >= 2);

        gk_config config;
        assert_int_equal(gk_config_resolve(def, NULL, &config), GEMMKIT_SUCCESS);
        gk_define defines[GK_MAX_DEFINES];
        unsigned count = gk_config_defines(&config, defines);
        gk_cuda_image image;
        char *log = NULL;
        assert_int_not_equal(gk_cuda_compile_source(gk_kernel_source(def->source), defines, count,
                                                    def->arch_specific, &image, &log),
                             GEMMKIT_SUCCESS);
        assert_non_null(log);
        free(log);
    }
    assert_true(rows >= 2);
}

/* Whether a registry row takes the cp.async ring (an ASYNC_STAGES parameter: xgemm.cl's and xgemm_direct.cl's rows). */
static int has_ring(const gk_kernel_def *def) { return takes_param(def, "ASYNC_STAGES"); }

/* One build of a row with `params` over its defaults, op(A), op(B) and VEC_* from v's bits as above (v & 1:
 * TRANS_A, v & 2: TRANS_B, float4 access for NT and TN), for arch; the image, to be freed. */
static gk_cuda_image build_variant(const gk_kernel_def *def, const char *params, int v, int arch)
{
    gk_config config;
    if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS)
        fail_msg("kernel %s: %s rejected: %s", def->name, params, gemmkit_last_error_message());
    gk_define defines[GK_MAX_DEFINES];
    unsigned count = gk_config_defines(&config, defines);
    if (def->defines & GK_DEFINE_TRANS_A) {
        defines[count++] = (gk_define){"TRANS_A", v & 1};
        defines[count++] = (gk_define){"TRANS_B", (v >> 1) & 1};
    }
    if (def->defines & GK_DEFINE_VEC_A) {
        const int on = v == 1 || v == 2;
        defines[count++] = (gk_define){"VEC_A", on};
        defines[count++] = (gk_define){"VEC_B", on};
        defines[count++] = (gk_define){"VEC_C", on};
    }
    gk_cuda_image image;
    char what[200];
    snprintf(what, sizeof what, "kernel %s (%s) with %s", def->name, def->source, params);
    compile_ok(what, gk_kernel_source(def->source), defines, count, arch, &image);
    if (!image_has(&image, def->function))
        fail_msg("kernel %s: no function %s in the %s output", def->name, def->function, image.target);
    return image;
}

/* The cp.async rings (ASYNC_STAGES, library/async_copy.h's inline PTX; the defaults above have none) of every row
 * that takes one: three stages for sm_80 and sm_90, CUBIN, so that ptxas assembles every copy (a PTX typo fails
 * here), at each op(A), op(B) with and without float4 access (xgemm_direct.cl's 16-byte, 4-byte and zero-filling
 * copies); two and four stages for sm_90; and PTX for an architecture newer than NVRTC knows, read back: the ring's
 * instructions are there, not the plain copies of other devices; xgemm-direct's TPG = 2 for sm_90. */
static void test_async_rings_compile_for_sm80_and_sm90(void **state)
{
    (void)state;
    require_nvrtc();
    static const int archs[] = {80, 90};
    int compiled = 0, rows = 0, zfill16 = 0, zfill4 = 0, copy16 = 0, copy4 = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (!has_ring(def)) continue;
        rows++;
        const int variants = def->defines & GK_DEFINE_TRANS_A ? 4 : 1;
        for (int v = 0; v < variants; v++) {
            for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
                gk_cuda_image image = build_variant(def, "ASYNC_STAGES=3", v, archs[a]);
                assert_true(image.is_cubin);
                free(image.data);
                compiled++;
            }
            gk_cuda_image ptx = build_variant(def, "ASYNC_STAGES=3", v, 9990);
            assert_false(ptx.is_cubin);
            const char *text = ptx.data;
            if (!strstr(text, "cp.async.commit_group") || !strstr(text, "cp.async.wait_group 1"))
                fail_msg("kernel %s (variant %d): no cp.async groups in the PTX", def->name, v);
            /* The copies: 16 bytes (.cg), 4 bytes (.ca), each whole or zero-filling (a source size operand). */
            copy16 += strstr(text, "cp.async.cg.shared.global [%r") != NULL && strstr(text, "], 16;") != NULL;
            zfill16 += strstr(text, "], 16, %r") != NULL;
            copy4 += strstr(text, "cp.async.ca.shared.global [%r") != NULL && strstr(text, "], 4;") != NULL;
            zfill4 += strstr(text, "], 4, %r") != NULL;
            free(ptx.data);
        }
        for (int stages = 2; stages <= 4; stages += 2) {
            char params[32];
            snprintf(params, sizeof params, "ASYNC_STAGES=%d", stages);
            gk_cuda_image image = build_variant(def, params, 0, 90);
            free(image.data);
            compiled++;
        }
        if (takes_param(def, "TPG")) { /* xgemm-direct's tiles per work-group, the ring across them */
            gk_cuda_image image = build_variant(def, "ASYNC_STAGES=3,TPG=2", 3, 90);
            assert_true(image.is_cubin);
            free(image.data);
            compiled++;
        }
    }
    print_message("%d builds of the rings of %d kernels for sm_80 and sm_90\n", compiled, rows);
    assert_true(rows >= 5); /* xgemm, xgemm-splitk, xgemm-direct, xgemm-direct-splitk, xgemm-direct-batched */
    assert_true(copy16 > 0 && zfill16 > 0 && copy4 > 0 && zfill4 > 0);
}

/* MIN_GROUPS (the transposes' and xgemm-direct-batched's CUDA launch bounds): every row that takes it builds for
 * sm_90 with a value, and its PTX carries the work-groups an SM as .minnctapersm (0, the default, none). */
static void test_min_groups_reach_the_launch_bounds(void **state)
{
    (void)state;
    require_nvrtc();
    int rows = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (!takes_param(def, "MIN_GROUPS")) continue;
        rows++;
        gk_cuda_image image = build_variant(def, "MIN_GROUPS=4", 0, 90);
        assert_true(image.is_cubin);
        free(image.data);
        gk_cuda_image ptx = build_variant(def, "MIN_GROUPS=4", 0, 9990);
        if (!strstr(ptx.data, ".minnctapersm 4")) fail_msg("kernel %s: no .minnctapersm 4 in the PTX", def->name);
        free(ptx.data);
        ptx = build_variant(def, NULL, 0, 9990);
        if (strstr(ptx.data, ".minnctapersm")) fail_msg("kernel %s: .minnctapersm without MIN_GROUPS", def->name);
        free(ptx.data);
    }
    assert_true(rows >= 4); /* transpose-fast, copy-fast, transpose-aligned, xgemm-direct-batched */
}

/* Every idiom cl_to_cuda.h documents, in one OpenCL C source. */
static const char idioms[] =
    "#ifndef WIDTH\n#define WIDTH 4\n#endif\n"
    "#if WIDTH == 1\ntypedef float floatX;\n#elif WIDTH == 2\ntypedef float2 floatX;\n"
    "#else\ntypedef float4 floatX;\n#endif\n"
    "float scale(float x, __constant float* k) { return x * k[0]; }\n"
    "__kernel __attribute__((reqd_work_group_size(16, 16, 1)))\n"
    "void idioms(const int n, const __global float4* restrict A, __global float* restrict B,\n"
    "            __constant float* k, __global float8* C, const __global floatX* X, __global floatX* Y) {\n"
    "    const int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    const int gx = get_global_id(0) + get_group_id(1) * get_local_size(1) + get_num_groups(0);\n"
    "    __local float tile[16][17];\n"
    "    __local float* row = &tile[ty][0];\n"
    "    __local floatX Xsub[16][4];\n"
    "    __local float4 Asub4[16][4];\n"
    "    float4 a = A[gx];\n"
    "    float4 acc = (float4)(0.0f);\n"
    "    float4 lit = (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "    float4 parts = (float4)(a.lo, a.hi);\n"
    "    float4 braced = {a.x, a.y, a.z, a.w};\n"
    "    floatX x = X[gx];\n"
    "    floatX xs = (floatX)(0.0f);\n"
    "    xs += x * 2.0f;\n"
    "    Xsub[ty][tx % 4] = xs;\n"
    "    Asub4[ty][tx % 4] = a;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    Y[gx] = Xsub[tx % 16][ty % 4];\n"
    "    a = Asub4[tx % 16][ty % 4];\n"
    "    acc += a * lit + parts - braced / 2.0f;\n"
    "    acc = fma(a, lit, acc);\n"
    "    acc = mad(a, 3.0f, acc);\n"
    "    acc.x += a.s0 * a.s1 + a.s2 * a.s3 + dot(a, lit);\n"
    "    acc.xy = acc.zw;\n"
    "    float2 h = a.lo;\n"
    "    h = -h + 1.0f;\n"
    "    row[tx] = acc.x + acc.y + h.x + native_exp(acc.z) + native_divide(acc.w, 3.0f) + mad(h.y, 2.0f, 1.0f);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float sum = 0.0f;\n"
    "    #pragma unroll\n"
    "    for (int i = 0; i < 16; i++) sum += tile[ty][i];\n"
    "    #pragma unroll 4\n"
    "    for (int i = 0; i < n; i++) sum = fma(sum, 0.5f, (float)i);\n"
    "    float8 v = C[gx];\n"
    "    v.s0 += v.s1 + v.s2 + v.s3 + v.s4 + v.s5 + v.s6 + v.s7 + v.lo.x + v.hi.w;\n"
    "    v = v * 2.0f + (float8)(acc, acc);\n"
    "    C[gx] = v;\n"
    "    float4 u = vload4(gx, B + 1);\n"
    "    vstore4(u * 2.0f, gx, B + 3);\n"
    "    float8 u8 = vload8(0, B);\n"
    "    vstore8(u8, 1, B);\n"
    "    const __global float4* A4 = (const __global float4*)B;\n"
    "    B[gx] = scale(sum, k) + A4[tx].y + clamp(sum, 0.0f, 1.0f) + min(sum, 2.0f) + max(1, tx) + mad24(tx, ty, 1)\n"
    "          + select(1.0f, 2.0f, tx > 3) + convert_float(tx) + as_float(as_int(sum)) + native_sqrt(fabs(sum));\n"
    "#ifdef __CUDACC__\n"
    "    float4 l = __ldg(&A[gx]);\n"
    "    float g = __ldg(&B[gx]) + gk_ldg(&B[gx + 1]);\n"
    "    float s = __shfl(g, 0, 8) + gk_shfl(g, 1, 8) + __shfl_down(g, 1) + __shfl_xor(g, 2);\n"
    "    float4 m4 = make_float4(1.0f, 2.0f, 3.0f, 4.0f) + l;\n"
    "    B[gx + 2] = m4.w + s + (GK_CUDA ? 1.0f : 0.0f) + (float)threadIdx.x;\n"
    "#endif\n"
    "}\n"
    "kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4)))\n"
    "void plain(global float* A, constant float* c) {\n"
    "    local float t[64];\n"
    "    local float* p = t;\n"
    "    t[get_local_id(0)] = A[get_global_id(0)] * c[0];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
    "    A[get_global_id(0)] = p[63 - get_local_id(0)];\n"
    "}\n";

static void test_header_idioms_compile(void **state)
{
    (void)state;
    require_nvrtc();
    const gk_define widths[] = {{"WIDTH", 1}, {"WIDTH", 2}, {"WIDTH", 4}};
    for (int w = 0; w < 3; w++) {
        gk_cuda_image image;
        compile_ok("the idioms kernel", idioms, &widths[w], 1, test_arch(), &image);
        assert_true(image.is_cubin);
        assert_true(image_has(&image, "idioms"));
        assert_true(image_has(&image, "plain"));
        free(image.data);
    }
}

/* A pointer cast to float4 must give 128-bit loads/stores, as under OpenCL:
 * an architecture newer than NVRTC knows yields PTX, which can be read. */
static void test_float4_pointers_give_vector_loads(void **state)
{
    (void)state;
    require_nvrtc();
    const char *source =
        "__kernel void copy4(const __global float* A, __global float* B) {\n"
        "    const int i = get_global_id(0);\n"
        "    const float4 v = ((const __global float4*)A)[i];\n"
        "    ((__global float4*)B)[i] = v * 2.0f;\n"
        "}\n";
    gk_cuda_image image;
    compile_ok("copy4", source, NULL, 0, 9990, &image);
    assert_false(image.is_cubin);
    assert_true(strncmp(image.target, "compute_", 8) == 0);
    if (!strstr(image.data, "ld.global.v4.f32") && !strstr(image.data, "ld.global.nc.v4.f32"))
        fail_msg("no 128-bit load in the PTX:\n%s", image.data);
    assert_non_null(strstr(image.data, "st.global.v4.f32"));
    free(image.data);
}

static void test_build_errors_return_the_log(void **state)
{
    (void)state;
    require_nvrtc();
    gk_cuda_image image;
    char *log = NULL;
    const gk_define x[] = {{"X", 1}, {"--not-an-identifier", 0}};
    gemmkit_status status =
        gk_cuda_compile_source("__kernel void k(__global float* A) {\n  A[0] = undefined_name;\n}\n", x, 1,
                               test_arch(), &image, &log);
    assert_int_equal(status, GEMMKIT_ERROR_BUILD_FAILED);
    assert_non_null(log);
    assert_non_null(strstr(log, "undefined_name"));
    assert_non_null(strstr(log, "kernel.cl(2)")); /* the .cl file's own line number */
    assert_null(image.data);
    free(log);

    log = NULL;
    status = gk_cuda_compile_source("__kernel void k(void) {}\n", x, 2, test_arch(), &image, &log);
    assert_int_equal(status, GEMMKIT_ERROR_BUILD_FAILED);
    assert_non_null(strstr(gemmkit_last_error_message(), "--not-an-identifier"));
    free(log);

    /* 64-bit define values pass through. */
    const gk_define big[] = {{"X", 1}, {"BIG", (int64_t)1 << 40}};
    compile_ok("defines", "__kernel void k(__global long* A) { A[0] = BIG; }\n", big, 2, test_arch(), &image);
    free(image.data);
}

/* No NVIDIA driver on a build machine: counted as zero devices or a clear
 * error, never a crash, and no context can be created. */
static void test_cuda_device_count_is_graceful(void **state)
{
    (void)state;
    int n = -1;
    gemmkit_status status = gemmkit_device_count(GEMMKIT_BACKEND_CUDA, &n);
    print_message("gemmkit_device_count(CUDA): %s, n = %d%s%s\n", gemmkit_strerror(status), n,
                  status ? ": " : "", status ? gemmkit_last_error_message() : "");
    if (status == GEMMKIT_SUCCESS) {
        assert_true(n >= 0);
        if (n > 0) return; /* a real GPU: the other tests cover it */
    } else {
        assert_true(status == GEMMKIT_ERROR_NO_DEVICE || status == GEMMKIT_ERROR_UNSUPPORTED_BACKEND ||
                    status == GEMMKIT_ERROR_BACKEND_FAILURE);
        assert_true(strlen(gemmkit_last_error_message()) > 0);
    }
    gemmkit_device_info info;
    assert_int_not_equal(gemmkit_device_get_info(GEMMKIT_BACKEND_CUDA, 0, &info), GEMMKIT_SUCCESS);
    gemmkit_context *ctx = (gemmkit_context *)&info; /* must be reset to NULL */
    assert_int_not_equal(gemmkit_context_create_ex(&ctx, GEMMKIT_BACKEND_CUDA, NULL), GEMMKIT_SUCCESS);
    assert_null(ctx);
    assert_true(strlen(gemmkit_last_error_message()) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewrites_vector_literals_and_local_pointers),
        cmocka_unit_test(test_leaves_calls_and_conditions_alone),
        cmocka_unit_test(test_every_registry_kernel_compiles),
        cmocka_unit_test(test_builtin_cuda_lines_compile),
        cmocka_unit_test(test_batched_small_builds),
        cmocka_unit_test(test_tensor_core_kernels_compile_for_sm80_and_sm90),
        cmocka_unit_test(test_arch_specific_kernels_compile_for_their_target),
        cmocka_unit_test(test_async_rings_compile_for_sm80_and_sm90),
        cmocka_unit_test(test_min_groups_reach_the_launch_bounds),
        cmocka_unit_test(test_header_idioms_compile),
        cmocka_unit_test(test_float4_pointers_give_vector_loads),
        cmocka_unit_test(test_build_errors_return_the_log),
        cmocka_unit_test(test_cuda_device_count_is_graceful),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
