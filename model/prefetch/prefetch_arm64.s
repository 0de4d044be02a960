#include "textflag.h"

// func Line(p unsafe.Pointer)
TEXT ·Line(SB), NOSPLIT|NOFRAME, $0-8
	MOVD p+0(FP), R0
	PRFM (R0), PLDL1KEEP
	RET

// func Lines(p unsafe.Pointer, n int)
TEXT ·Lines(SB), NOSPLIT|NOFRAME, $0-16
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	CMP $0, R1
	BLE done
loop:
	PRFM (R0), PLDL1KEEP
	ADD $64, R0
	SUBS $1, R1
	BNE loop
done:
	RET
