# Writes one .cu per config (4 layouts each) and cfgs.inc listing them.
import sys
# name: (BM,BN,BK,WM,WN,TM,TN,MINB,STAGES,SPLIT, layouts)
ALL = "nn nt tn tt".split()
# Round 2 (bench/results/h100-2026-11-23-sgemm-round2.md): round 1's winners,
# then k-inner shared tiles for k-contiguous operands (_i), double-buffered
# fragments (_d) and split-K tilings that fill 132 SMs at n = 1024. _i and _d
# lost and are not in the template: configurations using them need
# k-inner-frag-db.patch applied to the copied header first
# (patch include/kgen/sgemm.cuh < k-inner-frag-db.patch).
# name: (BM,BN,BK,WM,WN,TM,TN,MINB,STAGES,SPLIT,K_INNER,FRAG_DB, layouts)
cfgs = [
  ("a128x256x16_o1_s3",    128,256,16,64,64, 8,16,1,3,1,  0,0, ALL),
  ("a128x128x16_o1_s3",    128,128,16,32,64, 8,8, 1,3,1,  0,0, ALL),
  ("a128x64x8_o3_s4",      128,64,8,  64,32, 8,8, 3,4,1,  0,0, ALL),
  ("a64x64x8_o4_s4",       64,64,8,   32,32, 4,8, 4,4,1,  0,0, ALL),
  ("a128x128x8_o2_s4_k4",  128,128,8, 32,64, 8,8, 2,4,4,  0,0, ALL),
  ("a64x64x8_o4_s4_k128",  64,64,8,   32,32, 4,8, 4,4,128,0,0, ALL),
  ("a128x256x16_o1_s3_i",  128,256,16,64,64, 8,16,1,3,1,  1,0, ALL),
  ("a128x256x16_o1_s3_d",  128,256,16,64,64, 8,16,1,3,1,  0,1, ALL),
  ("a128x256x16_o1_s3_i_d",128,256,16,64,64, 8,16,1,3,1,  1,1, ALL),
  ("a128x128x16_o1_s3_i",  128,128,16,32,64, 8,8, 1,3,1,  1,0, ALL),
  ("a128x128x16_o1_s3_d",  128,128,16,32,64, 8,8, 1,3,1,  0,1, ALL),
  ("a128x128x16_o1_s3_i_d",128,128,16,32,64, 8,8, 1,3,1,  1,1, ALL),
  ("a128x128x16_o1_s4_i",  128,128,16,32,64, 8,8, 1,4,1,  1,0, ALL),
  ("a128x64x8_o3_s4_i",    128,64,8,  64,32, 8,8, 3,4,1,  1,0, ALL),
  ("a128x64x16_o2_s3_i",   128,64,16, 64,32, 8,8, 2,3,1,  1,0, ALL),
  ("a128x128x8_o2_s4_k2",  128,128,8, 32,64, 8,8, 2,4,2,  0,0, ALL),
  ("a128x64x8_o3_s4_k2",   128,64,8,  64,32, 8,8, 3,4,2,  0,0, ALL),
  ("a128x64x8_o3_s4_k2_i", 128,64,8,  64,32, 8,8, 3,4,2,  1,0, ALL),
  ("a64x64x8_o4_s4_k4",    64,64,8,   32,32, 4,8, 4,4,4,  0,0, ALL),
  ("a128x128x8_o2_s4_k4_i",128,128,8, 32,64, 8,8, 2,4,4,  1,0, ALL),
  ("a64x64x8_o4_s4_k128_i",64,64,8,   32,32, 4,8, 4,4,128,1,0, ALL),
]
ords = {"n": "kgen::Order::Row", "t": "kgen::Order::Col"}
lst = []
for i,(name,BM,BN,BK,WM,WN,TM,TN,MB,S,SK,KI,DB,lays) in enumerate(cfgs):
    extra = f",{'true' if KI else 'false'},{'true' if DB else 'false'}" if KI or DB else ""
    if KI:  # tn has no k-contiguous operand: k-inner changes nothing there
        lays = [l for l in lays if l != "tn"]
    with open(f"cfg{i}.cu","w") as f:
        f.write('#include "harness.h"\n#include "kgen/sgemm.cuh"\n')
        for l in lays:
            f.write(f"struct C{i}{l} : kgen::sgemm::Config<{BM},{BN},{BK},{WM},{WN},{TM},{TN},{MB},true,{ords[l[0]]},{ords[l[1]]},{S},{SK}{extra}> {{}};\n")
        f.write(f"void reg{i}(std::vector<Entry>& v) {{\n")
        for l in lays:
            f.write(f'  v.push_back({{"{name}", "{l}", {SK}, kgen::sgemm::launch<C{i}{l}>, kgen::sgemm::workspace_bytes<C{i}{l}>}});\n')
        f.write("}\n")
    lst.append(i)
with open("cfgs.inc","w") as f:
    for i in lst: f.write(f"void reg{i}(std::vector<Entry>&);\n")
    f.write("static void reg_all(std::vector<Entry>& v) {\n")
    for i in lst: f.write(f"  reg{i}(v);\n")
    f.write("}\n")
print(len(lst))
