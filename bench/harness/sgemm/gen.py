# Writes one .cu per config (4 layouts each) and cfgs.inc listing them.
import sys
# name: (BM,BN,BK,WM,WN,TM,TN,MINB,STAGES,SPLIT, layouts)
ALL = "nn nt tn tt".split()
cfgs = [
  ("r128x128x8_o1_s2",   128,128,8, 32,64, 8,8, 1,2,1, ALL),
  ("r128x128x16_o1_s2",  128,128,16,32,64, 8,8, 1,2,1, ALL),
  ("a128x128x8_o1_s3",   128,128,8, 32,64, 8,8, 1,3,1, ALL),
  ("a128x128x8_o1_s4",   128,128,8, 32,64, 8,8, 1,4,1, ALL),
  ("a128x128x8_o2_s3",   128,128,8, 32,64, 8,8, 2,3,1, ALL),
  ("a128x128x8_o2_s4",   128,128,8, 32,64, 8,8, 2,4,1, ALL),
  ("a128x128x16_o1_s3",  128,128,16,32,64, 8,8, 1,3,1, ALL),
  ("a128x128x16_o2_s3",  128,128,16,32,64, 8,8, 2,3,1, ALL),
  ("a128x128x8_w64x32_o2_s4", 128,128,8, 64,32, 8,8, 2,4,1, ALL),
  ("a128x256x8_o1_s3",   128,256,8, 64,64, 8,16,1,3,1, ALL),
  ("a128x256x8_o1_s4",   128,256,8, 64,64, 8,16,1,4,1, ALL),
  ("a256x128x8_o1_s3",   256,128,8, 64,64, 16,8,1,3,1, ALL),
  ("a256x128x8_o1_s4",   256,128,8, 64,64, 16,8,1,4,1, ALL),
  ("a128x128x8_o2_s5",   128,128,8, 32,64, 8,8, 2,5,1, ALL),
  ("a256x128x8_t8x16_s4",256,128,8, 64,64, 8,16,1,4,1, ALL),
  ("a128x256x8_w32x128_s4",128,256,8,32,128,8,16,1,4,1, ALL),
  ("a128x256x16_o1_s3",  128,256,16,64,64, 8,16,1,3,1, ALL),
  ("a64x64x8_o4_s4",     64,64,8,  32,32, 4,8, 4,4,1, ALL),
  ("a128x64x8_o3_s4",    128,64,8, 64,32, 8,8, 3,4,1, ALL),
  ("a64x64x8_o4_s4_k8",  64,64,8,  32,32, 4,8, 4,4,8,   ["nn","tt"]),
  ("a64x64x8_o4_s4_k32", 64,64,8,  32,32, 4,8, 4,4,32,  ["nn","tt"]),
  ("a64x64x8_o4_s4_k128",64,64,8,  32,32, 4,8, 4,4,128, ["nn","tt"]),
  ("a128x128x8_o2_s4_k2",128,128,8,32,64, 8,8, 2,4,2,   ["nn","tt"]),
  ("a128x128x8_o2_s4_k4",128,128,8,32,64, 8,8, 2,4,4,   ["nn","tt"]),
  ("a128x64x8_o3_s4_k2", 128,64,8, 64,32, 8,8, 3,4,2,   ["nn","tt"]),
]
ords = {"n": "kgen::Order::Row", "t": "kgen::Order::Col"}
lst = []
for i,(name,BM,BN,BK,WM,WN,TM,TN,MB,S,SK,lays) in enumerate(cfgs):
    with open(f"cfg{i}.cu","w") as f:
        f.write('#include "harness.h"\n#include "kgen/sgemm.cuh"\n')
        for l in lays:
            f.write(f"struct C{i}{l} : kgen::sgemm::Config<{BM},{BN},{BK},{WM},{WN},{TM},{TN},{MB},true,{ords[l[0]]},{ords[l[1]]},{S},{SK}> {{}};\n")
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
