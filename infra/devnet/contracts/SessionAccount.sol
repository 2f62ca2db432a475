// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AccountERC7579} from "@openzeppelin/contracts/account/extensions/draft-AccountERC7579.sol";
import {SignerECDSA} from "@openzeppelin/contracts/utils/cryptography/signers/SignerECDSA.sol";
import {IEntryPoint} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";

/// The user's smart account: OpenZeppelin's ERC-4337 Account with ERC-7579 modules, owned by one
/// EOA (SignerECDSA). A user operation whose nonce key names an installed validator module is
/// validated by that module (AccountERC7579); any other is validated by the owner's signature over
/// the user operation hash. ERC-1271: a module-prefixed signature goes to the module; otherwise the
/// owner's ECDSA signature over the hash (a personal_sign of a message verifies against its
/// EIP-191 hash). Note: the raw owner path does not bind the account's address (no ERC-7739), so
/// the same owner signature is valid for every account of that owner.
contract SessionAccount is AccountERC7579, SignerECDSA {
    IEntryPoint private immutable _ENTRY_POINT;

    constructor(IEntryPoint entryPoint_, address owner_) SignerECDSA(owner_) {
        _ENTRY_POINT = entryPoint_;
    }

    function entryPoint() public view override returns (IEntryPoint) {
        return _ENTRY_POINT;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) public view override returns (bytes4) {
        bytes4 viaModule = super.isValidSignature(hash, signature);
        if (viaModule == IERC1271.isValidSignature.selector) return viaModule;
        return SignerECDSA._rawSignatureValidation(hash, signature) ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }

    function _rawSignatureValidation(
        bytes32 hash,
        bytes calldata signature
    ) internal view override(AccountERC7579, SignerECDSA) returns (bool) {
        return SignerECDSA._rawSignatureValidation(hash, signature);
    }
}

/// Deploys SessionAccounts with CREATE2 (owner, salt): the address is known before deployment.
contract SessionAccountFactory {
    IEntryPoint public immutable entryPoint;

    event AccountCreated(address indexed account, address indexed owner, bytes32 salt);

    constructor(IEntryPoint entryPoint_) {
        entryPoint = entryPoint_;
    }

    /// deploys the account unless it exists; returns its address either way
    function createAccount(address owner, bytes32 salt) external returns (address account) {
        account = accountAddress(owner, salt);
        if (account.code.length > 0) return account;
        SessionAccount created = new SessionAccount{salt: salt}(entryPoint, owner);
        emit AccountCreated(address(created), owner, salt);
        return address(created);
    }

    function accountAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 code = keccak256(abi.encodePacked(type(SessionAccount).creationCode, abi.encode(entryPoint, owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, code)))));
    }
}
