// Command agepayload is a native reference for the payload of an age file:
// how fast this machine can encrypt and decrypt it file to file on N threads
// with positioned reads and writes (pread/pwrite). It is a ceiling to compare
// fourfold's JavaScript against, not an age implementation.
//
// The payload follows the age spec's "Payload" section (C2SP age,
// https://c2sp.org/age#payload), which uses the STREAM construction
// (Hoang, Reyhanitabar, Rogaway, Vizár, "Online Authenticated-Encryption and
// its Nonce-Reuse Misuse-Resistance"):
//
//   - payload key = HKDF-SHA-256(ikm = file key, salt = 16-byte nonce,
//     info = "payload");
//   - the plaintext is cut into 64 KiB chunks; chunk i is sealed with
//     ChaCha20-Poly1305 under the 12-byte nonce made of the 11-byte
//     big-endian counter i followed by one flag byte, 0x01 for the last
//     chunk and 0x00 otherwise; a sealed chunk is 64 KiB + 16 bytes;
//   - the last chunk may be short, and is empty only when the whole
//     plaintext is empty (which gives one empty final chunk).
//
// There is no X25519 header: the file key is a fixed constant and the header
// is a fixed 200-byte placeholder ending in the random 16-byte nonce. The
// payload is more than 99.99% of the work for a large file, and that is what
// this program measures.
//
// Usage:
//
//	agepayload [-threads N] encrypt IN OUT
//	agepayload [-threads N] decrypt IN OUT
//
// OUT is written as OUT.tmp and renamed at the end (no fsync). Decryption
// checks every chunk; on any failure OUT.tmp is removed and the exit status
// is 1.
package main

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/hkdf"
)

const (
	chunkSize   = 64 * 1024      // plaintext bytes per chunk
	sealedSize  = chunkSize + 16 // ciphertext + Poly1305 tag
	pieceChunks = 60             // chunks handed out at a time
	headerLen   = 200            // placeholder header, nonce last
	magic       = "fourfold-bench-age-payload/v1\n"
)

// fileKey stands in for the file key an age header would carry.
var fileKey = bytes.Repeat([]byte{0x42}, 16)

// job is one file-to-file run, shared read-only by its workers.
type job struct {
	in, out  *os.File
	encrypt  bool
	aead     cipher.AEAD
	plainLen int64 // plaintext length
	chunks   int64 // number of chunks, at least 1
}

func main() {
	threads := flag.Int("threads", runtime.NumCPU(), "worker goroutines")
	flag.Parse()
	if flag.NArg() != 3 || (flag.Arg(0) != "encrypt" && flag.Arg(0) != "decrypt") || *threads < 1 {
		fmt.Fprintln(os.Stderr, "usage: agepayload [-threads N] encrypt|decrypt IN OUT")
		os.Exit(2)
	}
	if err := run(flag.Arg(0) == "encrypt", flag.Arg(1), flag.Arg(2), *threads); err != nil {
		fmt.Fprintln(os.Stderr, "agepayload:", err)
		os.Exit(1)
	}
}

func run(encrypt bool, inPath, outPath string, threads int) error {
	in, err := os.Open(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}

	// The header: the magic line, zero padding, then the 16-byte nonce.
	header := make([]byte, headerLen)
	nonce := header[headerLen-16:]
	j := &job{in: in, encrypt: encrypt}
	if encrypt {
		copy(header, magic)
		if _, err := rand.Read(nonce); err != nil {
			return err
		}
		j.plainLen = st.Size()
		j.chunks = max(1, (j.plainLen+chunkSize-1)/chunkSize)
	} else {
		if _, err := in.ReadAt(header, 0); err != nil || !bytes.HasPrefix(header, []byte(magic)) {
			return errors.New("not a payload file written by this program")
		}
		// The file's length fixes the chunk count, so the last chunk (the
		// one sealed with the final flag) is known before reading it.
		payload := st.Size() - headerLen
		j.chunks = (payload + sealedSize - 1) / sealedSize
		last := payload - (j.chunks-1)*sealedSize
		if payload < 16 || last < 16 || (last == 16 && j.chunks > 1) {
			return errors.New("truncated payload")
		}
		j.plainLen = payload - 16*j.chunks
	}

	key := make([]byte, chacha20poly1305.KeySize)
	if _, err := io.ReadFull(hkdf.New(sha256.New, fileKey, nonce, []byte("payload")), key); err != nil {
		return err
	}
	if j.aead, err = chacha20poly1305.New(key); err != nil {
		return err
	}

	tmpPath := outPath + ".tmp"
	j.out, err = os.OpenFile(tmpPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		j.out.Close()
		os.Remove(tmpPath)
		return err
	}
	if encrypt {
		if _, err := j.out.WriteAt(header, 0); err != nil {
			return fail(err)
		}
	}

	// Workers take pieces of pieceChunks chunks from one atomic counter
	// until none are left or one of them fails.
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			runtime.LockOSThread() // one OS thread per worker (optional)
			errs[t] = j.work(&next, &failed)
			if errs[t] != nil {
				failed.Store(true)
			}
		}(t)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	if err := j.out.Close(); err != nil {
		os.Remove(tmpPath)
		return err
	}
	return os.Rename(tmpPath, outPath)
}

// work is one worker's loop. Its two buffers (one piece of input, one of
// output) are allocated once and reused for every piece it takes.
func (j *job) work(next *atomic.Int64, failed *atomic.Bool) error {
	src := make([]byte, pieceChunks*sealedSize)
	dst := make([]byte, pieceChunks*sealedSize)
	var nonce [chacha20poly1305.NonceSize]byte
	for !failed.Load() {
		first := next.Add(pieceChunks) - pieceChunks // first chunk of this piece
		if first >= j.chunks {
			return nil
		}
		n := min(pieceChunks, j.chunks-first) // chunks in this piece

		// Byte ranges of the piece on both sides; only the file's last
		// chunk can be short.
		plainOff := first * chunkSize
		plainLen := min(n*chunkSize, j.plainLen-plainOff)
		sealedOff := headerLen + first*sealedSize
		sealedLen := plainLen + 16*n
		inOff, inLen, outOff, outLen := plainOff, plainLen, sealedOff, sealedLen
		if !j.encrypt {
			inOff, inLen, outOff, outLen = sealedOff, sealedLen, plainOff, plainLen
		}

		if _, err := j.in.ReadAt(src[:inLen], inOff); err != nil {
			return err
		}
		for k := int64(0); k < n; k++ {
			i := first + k
			// Nonce: 11-byte big-endian counter (bytes 0-2 stay zero),
			// then the last-chunk flag.
			binary.BigEndian.PutUint64(nonce[3:11], uint64(i))
			nonce[11] = 0
			if i == j.chunks-1 {
				nonce[11] = 1
			}
			if j.encrypt {
				p := src[k*chunkSize : min((k+1)*chunkSize, plainLen)]
				j.aead.Seal(dst[k*sealedSize:k*sealedSize], nonce[:], p, nil)
			} else {
				c := src[k*sealedSize : min((k+1)*sealedSize, sealedLen)]
				if _, err := j.aead.Open(dst[k*chunkSize:k*chunkSize], nonce[:], c, nil); err != nil {
					return fmt.Errorf("chunk %d: %w", i, err)
				}
			}
		}
		if _, err := j.out.WriteAt(dst[:outLen], outOff); err != nil {
			return err
		}
	}
	return nil
}
