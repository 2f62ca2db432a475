// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PackedUserOperation} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {
    IERC7579Validator,
    IERC7579ModuleConfig,
    IERC7579Execution,
    Execution,
    MODULE_TYPE_VALIDATOR
} from "@openzeppelin/contracts/interfaces/draft-IERC7579.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {Bytes} from "@openzeppelin/contracts/utils/Bytes.sol";

/// The three exact-input swaps of Uniswap V2's router02 a session may call.
interface IUniswapV2RouterSwaps {
    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        returns (uint256[] memory amounts);

    function swapExactTokensForETH(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external returns (uint256[] memory amounts);

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external returns (uint256[] memory amounts);
}

/// ERC-7579 validator module: session keys that may only swap through one Uniswap V2 router, back to
/// the account, within a cumulative native spend cap, until an expiry.
///
/// A user operation is validated when its nonce key names this module (OpenZeppelin's
/// AccountERC7579 reads the validator from the nonce key's top 20 bytes) and:
/// - its signature is a live session key's ECDSA signature over the user operation hash (raw: the
///   EntryPoint v0.8 hash is already an EIP-712 digest);
/// - its callData is the account's `execute(mode, executionCalldata)` in single or batch mode
///   (call type 0x00 or 0x01, exec type default, nothing else in the mode) where every call is
///   either one of the router's swapExactETHForTokens / swapExactTokensForETH /
///   swapExactTokensForTokens with `to` == the account, or an ERC-20 `approve(router, amount)`
///   with no value; native value goes only to the router's swapExactETHForTokens; or a single call
///   to this module's `revokeSession(account, sessionKey)` for its own key;
/// - no initCode, no paymaster;
/// - spentWei + (sum of values + the op's maximum gas cost: what the EntryPoint may take from the
///   account) <= capWei; spentWei is raised in validation (a swap that then reverts stays counted).
/// The session's validUntil is packed into the validation data: the EntryPoint refuses the op once
/// it has passed (FailedOp "AA22 expired or not due"). Anything else returns SIG_VALIDATION_FAILED,
/// and the EntryPoint reverts the bundle (FailedOp "AA24 signature error"). Validation reads only
/// storage associated with the account and uses no banned opcode (ERC-7562).
///
/// Session keys never sign for the account: isValidSignatureWithSender always says no (a session
/// key's ERC-1271 signature could otherwise authorize a permit that moves the account's tokens).
contract SessionSwapValidator is IERC7579Validator {
    using ERC4337Utils for PackedUserOperation;

    struct Session {
        address router;
        uint48 validUntil;
        bool revoked;
        uint256 epoch;
        uint256 capWei;
        uint256 spentWei;
    }

    bytes32 private constant MODE_SINGLE = bytes32(0);
    bytes32 private constant MODE_BATCH = bytes32(uint256(1) << 248);

    /// session key first: an account's session lives at keccak(account . keccak(key . slot)),
    /// storage associated with the account as ERC-7562 allows in validation
    mapping(address sessionKey => mapping(address account => Session)) private _sessions;
    /// raised when the module is uninstalled: every session of an older epoch is dead
    mapping(address account => uint256) private _epochs;

    event SessionEnabled(address indexed account, address indexed sessionKey, address router, uint256 capWei, uint48 validUntil);
    event SessionSpent(address indexed account, address indexed sessionKey, uint256 amountWei, uint256 spentWei);
    event SessionRevoked(address indexed account, address indexed sessionKey, address by);
    event SessionsCleared(address indexed account);

    error ModuleNotInstalled(address account);
    error InvalidSession();
    error NotSessionParty(address caller);

    /// @dev data: empty, or abi.encode(sessionKey, router, capWei, validUntil) to enable a first session
    function onInstall(bytes calldata data) external {
        if (data.length == 0) return;
        (address sessionKey, address router, uint256 capWei, uint48 validUntil) = abi.decode(
            data,
            (address, address, uint256, uint48)
        );
        _enable(msg.sender, sessionKey, router, capWei, validUntil);
    }

    function onUninstall(bytes calldata) external {
        _epochs[msg.sender]++;
        emit SessionsCleared(msg.sender);
    }

    function isModuleType(uint256 moduleTypeId) external pure returns (bool) {
        return moduleTypeId == MODULE_TYPE_VALIDATOR;
    }

    /// the account (through its own execute, i.e. its owner) enables or replaces a session; the
    /// spent amount starts at zero
    function enableSession(address sessionKey, address router, uint256 capWei, uint48 validUntil) external {
        require(
            IERC7579ModuleConfig(msg.sender).isModuleInstalled(MODULE_TYPE_VALIDATOR, address(this), ""),
            ModuleNotInstalled(msg.sender)
        );
        _enable(msg.sender, sessionKey, router, capWei, validUntil);
    }

    /// ends a session for good: the account or the session key itself
    function revokeSession(address account, address sessionKey) external {
        require(msg.sender == account || msg.sender == sessionKey, NotSessionParty(msg.sender));
        _sessions[sessionKey][account].revoked = true;
        emit SessionRevoked(account, sessionKey, msg.sender);
    }

    /// enabled: a session was enabled in the module's current installation on the account
    function session(address account, address sessionKey)
        external
        view
        returns (address router, uint256 capWei, uint256 spentWei, uint48 validUntil, bool revoked, bool enabled)
    {
        Session storage s = _sessions[sessionKey][account];
        return (s.router, s.capWei, s.spentWei, s.validUntil, s.revoked, s.router != address(0) && s.epoch == _epochs[account]);
    }

    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash) external returns (uint256) {
        address account = msg.sender;
        if (userOp.sender != account || userOp.initCode.length != 0 || userOp.paymasterAndData.length != 0) {
            return ERC4337Utils.SIG_VALIDATION_FAILED;
        }
        (address sessionKey, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(userOpHash, userOp.signature);
        if (err != ECDSA.RecoverError.NoError) return ERC4337Utils.SIG_VALIDATION_FAILED;
        Session storage s = _sessions[sessionKey][account];
        if (s.router == address(0) || s.revoked || s.epoch != _epochs[account]) return ERC4337Utils.SIG_VALIDATION_FAILED;
        (bool allowed, uint256 value) = _inspect(account, sessionKey, s.router, userOp.callData);
        if (!allowed) return ERC4337Utils.SIG_VALIDATION_FAILED;
        uint256 cost = value + (userOp.verificationGasLimit() + userOp.callGasLimit() + userOp.preVerificationGas) * userOp.maxFeePerGas();
        if (s.spentWei + cost > s.capWei) return ERC4337Utils.SIG_VALIDATION_FAILED;
        s.spentWei += cost;
        emit SessionSpent(account, sessionKey, cost, s.spentWei);
        return ERC4337Utils.packValidationData(true, 0, s.validUntil);
    }

    function isValidSignatureWithSender(address, bytes32, bytes calldata) external pure returns (bytes4) {
        return bytes4(0xffffffff);
    }

    function _enable(address account, address sessionKey, address router, uint256 capWei, uint48 validUntil) private {
        require(
            sessionKey != address(0) &&
                router.code.length > 0 &&
                router != account &&
                router != address(this) &&
                validUntil > block.timestamp,
            InvalidSession()
        );
        _sessions[sessionKey][account] = Session({
            router: router,
            validUntil: validUntil,
            revoked: false,
            epoch: _epochs[account],
            capWei: capWei,
            spentWei: 0
        });
        emit SessionEnabled(account, sessionKey, router, capWei, validUntil);
    }

    /// whether callData is an allowed execute, and the native value it sends. Decoded with
    /// Solidity's ABI decoder, the same offsets the account's execute follows (a malformed
    /// encoding reverts here)
    function _inspect(
        address account,
        address sessionKey,
        address router,
        bytes calldata callData
    ) private view returns (bool allowed, uint256 value) {
        if (callData.length < 4 || bytes4(callData[0:4]) != IERC7579Execution.execute.selector) return (false, 0);
        (bytes32 mode, bytes memory executionCalldata) = abi.decode(callData[4:], (bytes32, bytes));
        if (mode == MODE_SINGLE) {
            // ERC7579Utils.decodeSingle: target (20 bytes) | value (32 bytes) | callData
            if (executionCalldata.length < 52) return (false, 0);
            address target = address(bytes20(Bytes.slice(executionCalldata, 0, 20)));
            value = uint256(bytes32(Bytes.slice(executionCalldata, 20, 52)));
            bytes memory data = Bytes.slice(executionCalldata, 52);
            if (target == address(this)) {
                bool revoking = value == 0 && keccak256(data) == keccak256(abi.encodeCall(this.revokeSession, (account, sessionKey)));
                return (revoking, 0);
            }
            return (_allowedCall(account, router, target, value, data), value);
        }
        if (mode == MODE_BATCH) {
            Execution[] memory calls = abi.decode(executionCalldata, (Execution[]));
            if (calls.length == 0) return (false, 0);
            for (uint256 i = 0; i < calls.length; i++) {
                if (!_allowedCall(account, router, calls[i].target, calls[i].value, calls[i].callData)) return (false, 0);
                value += calls[i].value;
            }
            return (true, value);
        }
        return (false, 0);
    }

    function _allowedCall(
        address account,
        address router,
        address target,
        uint256 value,
        bytes memory data
    ) private view returns (bool) {
        if (data.length < 4) return false;
        bytes4 selector = bytes4(data);
        bytes memory args = Bytes.slice(data, 4);
        if (target == router) {
            if (selector == IUniswapV2RouterSwaps.swapExactETHForTokens.selector) {
                (, , address to, ) = abi.decode(args, (uint256, address[], address, uint256));
                return to == account;
            }
            if (value != 0) return false;
            if (
                selector == IUniswapV2RouterSwaps.swapExactTokensForETH.selector ||
                selector == IUniswapV2RouterSwaps.swapExactTokensForTokens.selector
            ) {
                (, , , address to, ) = abi.decode(args, (uint256, uint256, address[], address, uint256));
                return to == account;
            }
            return false;
        }
        // an ERC-20 approval of the router, nothing else; address(0) would be the account itself (ERC7579Utils)
        if (value != 0 || selector != IERC20.approve.selector) return false;
        if (target == address(0) || target == account || target == address(this)) return false;
        (address spender, ) = abi.decode(args, (address, uint256));
        return spender == router;
    }
}
