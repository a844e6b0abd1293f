#ifndef NANASHI_COPENSSL_SHIM_H
#define NANASHI_COPENSSL_SHIM_H
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/kdf.h>
#endif
