// The agents context's public face: no other context uses anything of it yet (its api/ stays private).
export {};
