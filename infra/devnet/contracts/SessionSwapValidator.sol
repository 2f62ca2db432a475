// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PackedUserOperation} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {
    IERC7579Validator,
    IERC7579ModuleConfig,
    IERC7579Execution,
    Execution,
    MODULE_TYPE_VALIDATOR,
    MODULE_TYPE_EXECUTOR
} from "@openzeppelin/contracts/interfaces/draft-IERC7579.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {Bytes} from "@openzeppelin/contracts/utils/Bytes.sol";

/// The three exact-input swaps of Uniswap V2's router02 a session may make, and its WETH.
interface IUniswapV2RouterSwaps {
    function WETH() external view returns (address);

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

/// ERC-7579 session module, installed on the account as a validator AND an executor: session keys
/// may only make exact-input Uniswap V2 swaps back to the account, within per-asset cumulative caps,
/// until an expiry. Modeled on Rhinestone's Smart Sessions policies (erc7579/smartsessions), which no
/// registry package ships: the universal action policy's parameter rules (one allowed call, its
/// arguments pinned: path shape, recipient, amountOutMin > 0), the ERC-20 spending limits policy
/// (cumulative spend per token), the value limit policy (cumulative native), the time frame policy
/// (validUntil in the validation data). Unlike those, a token's limit is also raised by what the
/// session's own buys of it brought in, which only the execution phase can see.
///
/// A session's user operation has exactly one shape: the account's `execute` in single mode, no
/// value, calling this module's `swap(sessionKey, order)` (or `revokeSession(account, sessionKey)`
/// for its own key). Validation checks the signer, the order's path and arguments, and reserves
/// the order's amountIn (and the op's maximum gas cost, in native) against the session's budgets;
/// it marks the order as pending. Execution (`swap`, called by the account) consumes the pending
/// mark, approves the router exactly amountIn, swaps to the account through the account's
/// `executeFromExecutor`, and credits the measured balance increase of a bought token to that
/// token's budget. The session key never calls the router, a token or the account directly:
/// no transfer, no approval of its choosing, no batch, delegatecall or try mode.
///
/// Budgets (per session, per asset): native (wei; native and WETH count against it, and so does
/// the op's gas), each stablecoin signed at enable time (its units), and any other token: the units
/// the session's swaps brought in. A reservation stays counted when the swap then reverts.
/// Session keys never sign for the account: isValidSignatureWithSender always says no.
contract SessionSwapValidator is IERC7579Validator {
    using ERC4337Utils for PackedUserOperation;

    /// a stablecoin the session may spend, and how much of it in total (its base units)
    struct StableCap {
        address token;
        uint256 cap;
    }

    /// what the account's owner signs when enabling a session
    struct SessionGrant {
        address sessionKey;
        address router;
        uint48 validUntil;
        uint256 capNative;
        StableCap[] stables;
    }

    /// an exact-input swap; nativeIn: native in (path[0] is WETH); nativeOut: native out (last is WETH)
    struct SwapOrder {
        uint256 amountIn;
        uint256 amountOutMin;
        address[] path;
        uint256 deadline;
        bool nativeIn;
        bool nativeOut;
    }

    struct Session {
        address router;
        address weth;
        uint48 validUntil;
        bool revoked;
        uint256 epoch;
        /// the enablement: every enable gets a fresh one, so budgets never carry over
        uint256 grant;
    }

    struct Budget {
        uint256 limit;
        uint256 spent;
        /// WETH/native or a stablecoin of the grant: paths run between base assets and one other token
        bool base;
    }

    /// the native budget's asset key (native and WETH)
    address public constant NATIVE = address(0);

    bytes32 private constant MODE_SINGLE = bytes32(0);
    bytes32 private constant MODE_BATCH = bytes32(uint256(1) << 248);

    // every mapping ends in the account: storage associated with the account, as ERC-7562 allows in validation
    mapping(address sessionKey => mapping(address account => Session)) private _sessions;
    mapping(uint256 grant => mapping(address asset => mapping(address account => Budget))) private _budgets;
    mapping(bytes32 order => mapping(address account => bool)) private _pending;
    /// raised when the module is uninstalled: every session of an older epoch is dead
    mapping(address account => uint256) private _epochs;
    uint256 private _grants;

    event SessionEnabled(address indexed account, address indexed sessionKey, address router, uint256 capWei, uint48 validUntil);
    event SessionStableCap(address indexed account, address indexed sessionKey, address token, uint256 cap);
    event SessionSpent(address indexed account, address indexed sessionKey, address asset, uint256 amount, uint256 spent);
    event SessionCredited(address indexed account, address indexed sessionKey, address token, uint256 amount, uint256 limit);
    event SessionRevoked(address indexed account, address indexed sessionKey, address by);
    event SessionsCleared(address indexed account);

    error ModuleNotInstalled(address account);
    error InvalidSession();
    error NotSessionParty(address caller);
    error NotPending();

    /// data is ignored: sessions are enabled by enableSession once both module types are installed
    function onInstall(bytes calldata) external {}

    function onUninstall(bytes calldata) external {
        _epochs[msg.sender]++;
        emit SessionsCleared(msg.sender);
    }

    function isModuleType(uint256 moduleTypeId) external pure returns (bool) {
        return moduleTypeId == MODULE_TYPE_VALIDATOR || moduleTypeId == MODULE_TYPE_EXECUTOR;
    }

    /// the account (through its own execute, i.e. its owner) enables or replaces a session; every
    /// budget starts unspent, and tokens other than the grant's start with none
    function enableSession(SessionGrant calldata g) external {
        address account = msg.sender;
        require(
            IERC7579ModuleConfig(account).isModuleInstalled(MODULE_TYPE_VALIDATOR, address(this), "") &&
                IERC7579ModuleConfig(account).isModuleInstalled(MODULE_TYPE_EXECUTOR, address(this), ""),
            ModuleNotInstalled(account)
        );
        require(
            g.sessionKey != address(0) &&
                g.router.code.length > 0 &&
                g.router != account &&
                g.router != address(this) &&
                g.validUntil > block.timestamp,
            InvalidSession()
        );
        address weth = IUniswapV2RouterSwaps(g.router).WETH();
        uint256 grant = ++_grants;
        _sessions[g.sessionKey][account] = Session(g.router, weth, g.validUntil, false, _epochs[account], grant);
        _budgets[grant][NATIVE][account] = Budget(g.capNative, 0, true);
        _budgets[grant][weth][account].base = true;
        for (uint256 i = 0; i < g.stables.length; i++) {
            address token = g.stables[i].token;
            Budget storage b = _budgets[grant][token][account];
            require(token.code.length > 0 && token != weth && token != account && !b.base, InvalidSession());
            _budgets[grant][token][account] = Budget(g.stables[i].cap, 0, true);
            emit SessionStableCap(account, g.sessionKey, token, g.stables[i].cap);
        }
        emit SessionEnabled(account, g.sessionKey, g.router, g.capNative, g.validUntil);
    }

    /// ends a session for good: the account or the session key itself
    function revokeSession(address account, address sessionKey) external {
        require(msg.sender == account || msg.sender == sessionKey, NotSessionParty(msg.sender));
        _sessions[sessionKey][account].revoked = true;
        emit SessionRevoked(account, sessionKey, msg.sender);
    }

    /// enabled: a session was enabled in the module's current installation on the account; the
    /// cap and spent amount are the native budget's
    function session(address account, address sessionKey)
        external
        view
        returns (address router, uint256 capWei, uint256 spentWei, uint48 validUntil, bool revoked, bool enabled)
    {
        Session storage s = _sessions[sessionKey][account];
        (router, validUntil, revoked) = (s.router, s.validUntil, s.revoked);
        enabled = router != address(0) && s.epoch == _epochs[account];
        Budget storage b = _budgets[s.grant][NATIVE][account];
        (capWei, spentWei) = (b.limit, b.spent);
    }

    /// a session's budget of one asset (NATIVE for native and WETH)
    function budget(address account, address sessionKey, address asset) external view returns (uint256 limit, uint256 spent, bool base) {
        Session storage s = _sessions[sessionKey][account];
        Budget storage b = _budgets[s.grant][_assetOf(s, asset)][account];
        return (b.limit, b.spent, b.base || asset == s.weth);
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
        // what the EntryPoint may take from the account for gas counts against the native budget
        uint256 gasCost = (userOp.verificationGasLimit() + userOp.callGasLimit() + userOp.preVerificationGas) * userOp.maxFeePerGas();
        if (!_spend(account, sessionKey, s, NATIVE, gasCost)) return ERC4337Utils.SIG_VALIDATION_FAILED;
        if (!_allowedOp(account, sessionKey, s, userOp.callData)) return ERC4337Utils.SIG_VALIDATION_FAILED;
        return ERC4337Utils.packValidationData(true, 0, s.validUntil);
    }

    /// execution of a validated order (the account calls it from its execute): the swap, to the
    /// account, with the router approved exactly amountIn; a bought token's budget is credited
    /// with the account's balance increase of it
    function swap(address sessionKey, SwapOrder calldata order) external {
        address account = msg.sender;
        bytes32 id = keccak256(abi.encode(sessionKey, order));
        require(_pending[id][account], NotPending());
        delete _pending[id][account];
        Session storage s = _sessions[sessionKey][account];
        address tokenOut = order.path[order.path.length - 1];
        uint256 before = _balance(account, tokenOut, order.nativeOut);
        IERC7579Execution(account).executeFromExecutor(MODE_BATCH, abi.encode(_swapCalls(account, s.router, order)));
        uint256 gained = _balance(account, tokenOut, order.nativeOut) - before;
        Budget storage b = _budgets[s.grant][tokenOut][account];
        if (!b.base && tokenOut != s.weth && gained > 0) {
            b.limit += gained;
            emit SessionCredited(account, sessionKey, tokenOut, gained, b.limit);
        }
    }

    function isValidSignatureWithSender(address, bytes32, bytes calldata) external pure returns (bytes4) {
        return bytes4(0xffffffff);
    }

    /// the router calls of an order: approve exactly amountIn unless native goes in, then the swap
    function _swapCalls(address account, address router, SwapOrder calldata o) private pure returns (Execution[] memory calls) {
        bytes memory swapCall;
        if (o.nativeIn) {
            swapCall = abi.encodeCall(IUniswapV2RouterSwaps.swapExactETHForTokens, (o.amountOutMin, o.path, account, o.deadline));
            calls = new Execution[](1);
            calls[0] = Execution(router, o.amountIn, swapCall);
            return calls;
        }
        swapCall = o.nativeOut
            ? abi.encodeCall(IUniswapV2RouterSwaps.swapExactTokensForETH, (o.amountIn, o.amountOutMin, o.path, account, o.deadline))
            : abi.encodeCall(IUniswapV2RouterSwaps.swapExactTokensForTokens, (o.amountIn, o.amountOutMin, o.path, account, o.deadline));
        calls = new Execution[](2);
        calls[0] = Execution(o.path[0], 0, abi.encodeCall(IERC20.approve, (router, o.amountIn)));
        calls[1] = Execution(router, 0, swapCall);
    }

    function _balance(address account, address token, bool native) private view returns (uint256) {
        return native ? account.balance : IERC20(token).balanceOf(account);
    }

    /// WETH spends from the native budget
    function _assetOf(Session storage s, address token) private view returns (address) {
        return token == s.weth ? NATIVE : token;
    }

    /// reserves `amount` of the session's budget of `asset`; false when it would pass the limit
    function _spend(address account, address sessionKey, Session storage s, address asset, uint256 amount) private returns (bool) {
        Budget storage b = _budgets[s.grant][asset][account];
        if (b.spent + amount > b.limit) return false;
        if (amount == 0) return true;
        b.spent += amount;
        emit SessionSpent(account, sessionKey, asset, amount, b.spent);
        return true;
    }

    /// whether callData is the account's execute, single mode, no value, calling this module's swap
    /// (a valid order of this key, whose amountIn is then reserved and which is marked pending) or
    /// revokeSession of this key. Decoded with Solidity's ABI decoder, the offsets the account follows
    function _allowedOp(address account, address sessionKey, Session storage s, bytes calldata callData) private returns (bool) {
        if (callData.length < 4 || bytes4(callData[0:4]) != IERC7579Execution.execute.selector) return false;
        (bytes32 mode, bytes memory exec) = abi.decode(callData[4:], (bytes32, bytes));
        // ERC7579Utils.decodeSingle: target (20 bytes) | value (32 bytes) | callData
        if (mode != MODE_SINGLE || exec.length < 56) return false;
        address target = address(bytes20(Bytes.slice(exec, 0, 20)));
        uint256 value = uint256(bytes32(Bytes.slice(exec, 20, 52)));
        bytes memory data = Bytes.slice(exec, 52);
        if (target != address(this) || value != 0) return false;
        if (bytes4(data) == this.revokeSession.selector) {
            return keccak256(data) == keccak256(abi.encodeCall(this.revokeSession, (account, sessionKey)));
        }
        if (bytes4(data) != this.swap.selector) return false;
        (address orderKey, SwapOrder memory order) = abi.decode(Bytes.slice(data, 4), (address, SwapOrder));
        if (orderKey != sessionKey || !_allowedOrder(account, s, order)) return false;
        if (!_spend(account, sessionKey, s, _assetOf(s, order.path[0]), order.amountIn)) return false;
        _pending[keccak256(abi.encode(sessionKey, order))][account] = true;
        return true;
    }

    /// the universal-action-style rules of an order: amounts, native flags, and the path: two
    /// tokens (a base asset and one other) or three through WETH (a stablecoin, WETH, one other)
    function _allowedOrder(address account, Session storage s, SwapOrder memory o) private view returns (bool) {
        address[] memory p = o.path;
        if (o.amountIn == 0 || o.amountOutMin == 0 || (o.nativeIn && o.nativeOut)) return false;
        if (p.length != 2 && p.length != 3) return false;
        address first = p[0];
        address last = p[p.length - 1];
        if ((o.nativeIn && first != s.weth) || (o.nativeOut && last != s.weth)) return false;
        bool baseFirst = _isBase(account, s, first);
        bool baseLast = _isBase(account, s, last);
        if (baseFirst == baseLast) return false;
        address other = baseFirst ? last : first;
        if (other == address(0) || other == account || other == address(this) || other == s.router) return false;
        if (p.length == 2) return true;
        // three tokens: the middle one is WETH, the base end a stablecoin
        return p[1] == s.weth && (baseFirst ? first : last) != s.weth;
    }

    function _isBase(address account, Session storage s, address token) private view returns (bool) {
        return token == s.weth || _budgets[s.grant][token][account].base;
    }
}
