/* A straightforward accepted-style solution of UVa 167 "The Sultan's Successors", used only as
 * the speed reference in bench/judges.sh: the 92 solutions of 8 queens by backtracking once,
 * then for each board the largest sum over them, printed with %5d. */
#include <stdio.h>

static int sol[92][8], nsol, cols[8];

static void place(int row) {
    if (row == 8) {
        for (int r = 0; r < 8; r++) sol[nsol][r] = cols[r];
        nsol++;
        return;
    }
    for (int c = 0; c < 8; c++) {
        int ok = 1;
        for (int r = 0; r < row && ok; r++)
            if (cols[r] == c || cols[r] - c == r - row || cols[r] - c == row - r) ok = 0;
        if (ok) {
            cols[row] = c;
            place(row + 1);
        }
    }
}

int main(void) {
    int k, board[8][8];
    place(0);
    if (scanf("%d", &k) != 1) return 0;
    while (k-- > 0) {
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                if (scanf("%d", &board[r][c]) != 1) return 0;
        int best = 0;
        for (int s = 0; s < nsol; s++) {
            int sum = 0;
            for (int r = 0; r < 8; r++) sum += board[r][sol[s][r]];
            if (s == 0 || sum > best) best = sum;
        }
        printf("%5d\n", best);
    }
    return 0;
}
