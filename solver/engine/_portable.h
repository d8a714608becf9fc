/* The engine's bit operations on a 32-bit card set, its memory and branch hints: the only place
 * that names a compiler's builtins. gcc and clang (Linux, macOS; x86-64 and ARM) use their
 * __builtin_*; MSVC its intrinsics; any other compiler, or a build with KLAVERJAS_PORTABLE=1
 * (setup.py), the plain C below, which is how the fallbacks are tested on any machine:
 *     KLAVERJAS_PORTABLE=1 python -m pip install -e . && python -m pytest
 * The trailing-zero and leading-zero counts are only asked of sets that are not empty. */
#ifndef KLAVERJAS_PORTABLE_H
#define KLAVERJAS_PORTABLE_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define KJ_INLINE static __inline      /* MSVC's C compiler spells it this way */
#else
#define KJ_INLINE static inline
#endif

#if defined(KLAVERJAS_PORTABLE) && KLAVERJAS_PORTABLE
#define KJ_PLAIN_C 1
#elif defined(__GNUC__) || defined(__clang__)
#define KJ_GCC 1
#elif defined(_MSC_VER)
#define KJ_MSVC 1
#else
#define KJ_PLAIN_C 1
#endif

/* A condition that is rarely true: the compiler lays its branch out of the way. */
#if defined(KJ_GCC)
#define kj_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define kj_unlikely(x) (!!(x))
#endif

/* The number of cards in a set: the hardware instruction where the build asks for it
 * (-mpopcnt on x86-64; ARM has it in NEON), else a few shifts and masks. */
KJ_INLINE int kj_popcount(uint32_t x) {
#if defined(KJ_GCC)
    return __builtin_popcount(x);
#elif defined(KJ_MSVC) && (defined(_M_X64) || defined(_M_IX86))
    return (int)__popcnt(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

/* The index of the lowest card of a set that is not empty (its trailing zero bits). */
KJ_INLINE int kj_lowest_bit(uint32_t x) {
#if defined(KJ_GCC)
    return __builtin_ctz(x);
#elif defined(KJ_MSVC)
    unsigned long index;
    _BitScanForward(&index, x);
    return (int)index;
#else
    return kj_popcount((x & (0u - x)) - 1u);   /* the bits below the lowest one */
#endif
}

/* The zero bits above the highest card of a set that is not empty. */
KJ_INLINE int kj_leading_zeros(uint32_t x) {
#if defined(KJ_GCC)
    return __builtin_clz(x);
#elif defined(KJ_MSVC)
    unsigned long index;
    _BitScanReverse(&index, x);
    return 31 - (int)index;
#else
    x |= x >> 1;                               /* every bit below the highest one set */
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return 32 - kj_popcount(x);
#endif
}

/* A hint to start loading memory that is about to be read; it changes no result. */
KJ_INLINE void kj_prefetch(const void* address) {
#if defined(KJ_GCC)
    __builtin_prefetch(address);
#elif defined(KJ_MSVC) && (defined(_M_X64) || defined(_M_IX86))
    _mm_prefetch((const char*)address, _MM_HINT_T0);
#elif defined(KJ_MSVC) && defined(_M_ARM64)
    __prefetch(address);
#else
    (void)address;
#endif
}

#endif
