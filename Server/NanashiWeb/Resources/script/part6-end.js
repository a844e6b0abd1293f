  if (page === 'replay') { replay(); }
  if (page === 'watch') { watch(); }
  if (page === 'play') { play(); }
})();
