// Minimal hardhat 2 config for the local devnet node: no sources, no compiler, automine on.
/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  defaultNetwork: 'hardhat',
  networks: {
    hardhat: {
      chainId: 31337,
      mining: { auto: true, interval: 0 },
      accounts: { count: 40, accountsBalance: '1000000000000000000000000' },
      allowUnlimitedContractSize: true,
      loggingEnabled: false,
    },
  },
  paths: { sources: './.no-sources', cache: '/tmp/intel-devnet-hardhat-cache', artifacts: '/tmp/intel-devnet-hardhat-artifacts' },
};
