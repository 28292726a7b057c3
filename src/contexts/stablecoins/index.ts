// The stablecoins context's public face: no other context uses anything of it (its api/ stays private).
export {};
