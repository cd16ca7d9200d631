/*
 * A stand-in for Windows' bcryptprimitives.dll, for running Go test
 * binaries under Debian's Wine 8.0, which lacks it. Go >= 1.22 asks this
 * DLL for ProcessPrng, its source of random bytes; this one takes them
 * from RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 * Only for the CI's private Wine prefix: never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
